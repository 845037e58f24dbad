import { Cause, Duration, Effect, Result } from "effect"
import type { Reply } from "../adapters/Adapter.ts"
import type { ChannelError } from "../domain/ChannelError.ts"
import type { ChannelId } from "../domain/Identifier.ts"

/**
 * Calls one adapter once for a batch of items (channels, or writes to them) and collects its replies:
 * each item with its channel's answer, in the order given. The call is cut at `timeoutMs`; channels that have no reply by then, or
 * when the adapter dies, get a DeviceFailure.
 * Nothing an adapter does can fail the request: its failures become data.
 *
 * `settle` turns a reply into the channel's answer at the moment the device gives it, not when the
 * whole request is over: what the device said is then taken in the order it happened (a read answered
 * before a later write cannot overwrite it), and checked against the channel as it is then.
 */
export const callDevice = <I, A>(
  items: ReadonlyArray<I>,
  channelOf: (item: I) => ChannelId,
  timeoutMs: number,
  call: (reply: Reply<A>) => Effect.Effect<void>,
  settle: (item: I, reply: Result.Result<A, ChannelError>) => Effect.Effect<Result.Result<A, ChannelError>>
): Effect.Effect<ReadonlyArray<readonly [I, Result.Result<A, ChannelError>]>> =>
  Effect.suspend(() => {
    const replies = new Map<ChannelId, Result.Result<A, ChannelError>>()
    const wanted = new Map(items.map((item) => [channelOf(item), item] as const))
    const reply: Reply<A> = (channel, result) =>
      Effect.suspend(() => {
        const item = wanted.get(channel)
        if (item === undefined || replies.has(channel)) return Effect.void
        // Taken before `settle` runs, so that a second reply for the channel is ignored meanwhile.
        const answer = Result.mapError(result, deviceFailure)
        replies.set(channel, answer)
        return Effect.map(settle(item, answer), (settled) => void replies.set(channel, settled))
      })
    const collect = (message: string) =>
      Effect.sync(() => items.map((item) => [item, replies.get(channelOf(item)) ?? Result.fail(deviceFailure(message))] as const))
    return call(reply).pipe(
      Effect.timeoutOption(Duration.millis(timeoutMs)),
      Effect.matchCauseEffect({
        onFailure: (cause) => collect(`device failed: ${String(Cause.squash(cause))}`),
        onSuccess: (done) =>
          collect(done._tag === "None" ? `device did not answer within ${timeoutMs} ms` : "device gave no answer for this channel")
      })
    )
  })

export const deviceFailure = (message: string): ChannelError => ({ _tag: "DeviceFailure", message })
