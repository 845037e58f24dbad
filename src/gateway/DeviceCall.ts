import { Cause, Duration, Effect, Result } from "effect"
import type { Reply } from "../adapters/Adapter.ts"
import type { ChannelError } from "../domain/ChannelError.ts"
import type { ChannelId } from "../domain/Identifier.ts"

/**
 * Calls one adapter once for a batch of channels and collects its per-channel replies. The call is cut
 * at `timeoutMs`; channels that have no reply by then, or when the adapter dies, get a DeviceFailure.
 * Nothing an adapter does can fail the request: its failures become data.
 */
export const callDevice = <A>(
  channels: ReadonlyArray<ChannelId>,
  timeoutMs: number,
  call: (reply: Reply<A>) => Effect.Effect<void>
): Effect.Effect<ReadonlyMap<ChannelId, Result.Result<A, ChannelError>>> =>
  Effect.suspend(() => {
    const replies = new Map<ChannelId, Result.Result<A, ChannelError>>()
    const wanted = new Set(channels)
    const reply: Reply<A> = (channel, result) =>
      Effect.sync(() => {
        if (!wanted.has(channel) || replies.has(channel)) return
        replies.set(channel, Result.mapError(result, (message): ChannelError => ({ _tag: "DeviceFailure", message })))
      })
    const settle = (message: string) =>
      Effect.sync(() => {
        const answers = new Map(replies)
        for (const channel of channels) {
          if (!answers.has(channel)) answers.set(channel, Result.fail({ _tag: "DeviceFailure", message }))
        }
        return answers as ReadonlyMap<ChannelId, Result.Result<A, ChannelError>>
      })
    return call(reply).pipe(
      Effect.timeoutOption(Duration.millis(timeoutMs)),
      Effect.matchCauseEffect({
        onFailure: (cause) => settle(`device failed: ${String(Cause.squash(cause))}`),
        onSuccess: (done) =>
          settle(done._tag === "None" ? `device did not answer within ${timeoutMs} ms` : "device gave no answer for this channel")
      })
    )
  })
