import { Effect, Option, Result } from "effect"
import type { Adapter, CallContext, ServiceDescription } from "../../src/gateway/Adapter.ts"
import type { ChannelId, Value } from "../../src/domain/index.ts"
import { AdapterId, ChannelId as ChannelIdSchema, ServiceId } from "../../src/domain/index.ts"

/** How the recording adapter's devices behave. */
export type Behaviour = "answer" | "fail" | "hang"

/**
 * An adapter whose devices live in memory and which records every call the gateway makes to it:
 * what a test needs to count adapter calls and to see what reached a device.
 */
export const makeRecordingAdapter = (name: string, behaviour: (channel: ChannelId) => Behaviour = () => "answer") => {
  const values = new Map<ChannelId, Value>()
  const fetches: Array<ReadonlyArray<ChannelId>> = []
  const sends: Array<ReadonlyArray<{ readonly channel: ChannelId; readonly value: Value }>> = []
  const contexts: Array<CallContext> = []
  const adapter: Adapter = {
    id: AdapterId.make(`${name}@test`),
    fetch: (channels, context, reply) =>
      Effect.gen(function*() {
        fetches.push(channels)
        contexts.push(context)
        for (const channel of channels) {
          const how = behaviour(channel)
          if (how === "hang") continue
          yield* reply(channel, how === "fail" ? Result.fail("the device is on fire") : Result.succeed(Option.fromUndefinedOr(values.get(channel))))
        }
        if (channels.some((c) => behaviour(c) === "hang")) yield* Effect.never
      }),
    send: (writes, context, reply) =>
      Effect.gen(function*() {
        sends.push(writes)
        contexts.push(context)
        for (const { channel, value } of writes) {
          const how = behaviour(channel)
          if (how === "hang") continue
          if (how === "fail") yield* reply(channel, Result.fail("the device is on fire"))
          else {
            values.set(channel, value)
            yield* reply(channel, Result.succeed(undefined))
          }
        }
        if (writes.some((w) => behaviour(w.channel) === "hang")) yield* Effect.never
      }),
    refusesWatch: () => Option.none()
  }
  return { adapter, values, fetches, sends, contexts }
}

/** A light with an OnOff getter and setter, ids derived from `local` and `adapter`. */
export const lightDescription = (local: string, adapter: string): ServiceDescription => ({
  id: ServiceId.make(`service:${local}@${adapter}`),
  tags: [],
  properties: { name: local },
  getters: [{ id: ChannelIdSchema.make(`getter:${local}@${adapter}`), kind: { _tag: "Builtin", name: "OnOff" }, tags: [], pushMs: 0 }],
  setters: [{ id: ChannelIdSchema.make(`setter:${local}@${adapter}`), kind: { _tag: "Builtin", name: "OnOff" }, tags: [], pushMs: 0 }]
})
