import { Cause, Duration, Effect, Result } from "effect"
import type { Reply } from "../adapters/Adapter.ts"
import type { ChannelError } from "../domain/ChannelError.ts"
import type { ChannelId } from "../domain/Identifier.ts"

/**
 * Calls one adapter once for a batch of items (channels, or writes to them) and collects its replies:
 * each item with its channel's answer, in the order given. The call is cut at `timeoutMs`; channels that have no reply by then, or
 * when the adapter dies, get a DeviceFailure.
 * Nothing an adapter does can fail the request: its failures become data.
 */
export const callDevice = <I, A>(
  items: ReadonlyArray<I>,
  channelOf: (item: I) => ChannelId,
  timeoutMs: number,
  call: (reply: Reply<A>) => Effect.Effect<void>
): Effect.Effect<ReadonlyArray<readonly [I, Result.Result<A, ChannelError>]>> =>
  Effect.suspend(() => {
    const replies = new Map<ChannelId, Result.Result<A, ChannelError>>()
    const wanted = new Set(items.map(channelOf))
    const reply: Reply<A> = (channel, result) =>
      Effect.sync(() => {
        if (!wanted.has(channel) || replies.has(channel)) return
        replies.set(channel, Result.mapError(result, deviceFailure))
      })
    const settle = (message: string) =>
      Effect.sync(() => items.map((item) => [item, replies.get(channelOf(item)) ?? Result.fail(deviceFailure(message))] as const))
    return call(reply).pipe(
      Effect.timeoutOption(Duration.millis(timeoutMs)),
      Effect.matchCauseEffect({
        onFailure: (cause) => settle(`device failed: ${String(Cause.squash(cause))}`),
        onSuccess: (done) =>
          settle(done._tag === "None" ? `device did not answer within ${timeoutMs} ms` : "device gave no answer for this channel")
      })
    )
  })

export const deviceFailure = (message: string): ChannelError => ({ _tag: "DeviceFailure", message })
