import { Effect, type Result } from "effect"
import { type Adapter, type DeviceHost, DeviceRejected, type Reply, type ServiceDescription } from "../../src/gateway/Adapter.ts"
import type { ChannelId, ServiceId } from "../../src/domain/Identifier.ts"
import type { Value } from "../../src/domain/Value.ts"

/**
 * A DeviceHost that writes down what an adapter tells it, in order (a first value a device connects
 * with as a report), and refuses the services listed in `refused` (as the Registry refuses a device whose ids another adapter owns).
 */
export const makeRecordingHost = (refused: ReadonlySet<string> = new Set()) => {
  const upserts: Array<ServiceDescription> = []
  const removals: Array<ServiceId> = []
  /** Values reported, in order; an event (`reportEvent`) is marked `event: true`. */
  const reports: Array<{ readonly channel: ChannelId; readonly value: Value; readonly event?: true }> = []
  const adapters: Array<Adapter> = []
  const host: DeviceHost = {
    upsertService: (service) =>
      refused.has(service.id)
        ? Effect.fail(new DeviceRejected({ reason: `${service.id} is taken` }))
        : Effect.sync(() => void upserts.push(service)),
    // As the Registry does: the devices first, then the first values of those accepted.
    upsertServices: (taken) =>
      Effect.sync(() => {
        const connections = [...taken]
        const accepted = connections.filter(({ service }) => !refused.has(service.id))
        for (const { service } of accepted) upserts.push(service)
        for (const { firstValues } of accepted) reports.push(...firstValues)
        return connections.filter(({ service }) => refused.has(service.id)).map(({ service }) => ({ id: service.id, reason: `${service.id} is taken` }))
      }),
    removeService: (id) => Effect.sync(() => void removals.push(id)),
    reportValue: (channel, value) => Effect.sync(() => void reports.push({ channel, value })),
    reportValueNow: (channel, value) => {
      reports.push({ channel, value })
      return Effect.void
    },
    reportEvent: (channel, value) => Effect.sync(() => void reports.push({ channel, value, event: true }))
  }
  const connect = (adapter: Adapter) =>
    Effect.sync(() => {
      adapters.push(adapter)
      return host
    })
  /** A point in `reports`, to be given to `reportsSince`: everything reported until now lies before it. */
  const markReports = () => reports.length
  /** What was reported after `mark` was taken, in order. */
  const reportsSince = (mark: number) => reports.slice(mark)
  return { host, connect, upserts, removals, reports, adapters, markReports, reportsSince }
}

/** A `reply` that hands each answer to `take` as it is given, now or later. */
export const replyingTo = <A>(take: (channel: ChannelId, result: Result.Result<A, string>) => void): Reply<A> =>
  Object.assign((channel: ChannelId, result: Result.Result<A, string>) => Effect.sync(() => take(channel, result)), { now: take })

/** A `reply` that collects answers in the order they come. */
export const collectReplies = <A>() => {
  const replies: Array<{ readonly channel: ChannelId; readonly result: Result.Result<A, string> }> = []
  return { replies, reply: replyingTo<A>((channel, result) => void replies.push({ channel, result })) }
}

/** A `reply` that takes no notice of the answers. */
export const ignoreReplies = <A>(): Reply<A> => replyingTo(() => {})
