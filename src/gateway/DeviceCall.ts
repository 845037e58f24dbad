import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type { ChannelError } from "../domain/ChannelError.ts"
import type { ChannelId } from "../domain/Identifier.ts"
import type { Reply } from "./Adapter.ts"
import type { CallEnd } from "./DeviceCallMetrics.ts"

/** One adapter's share of a request: the items (channels, or writes to them) and the call that asks for them all. */
export interface DeviceBatch<I, A> {
  readonly adapter: string
  readonly items: ReadonlyArray<I>
  readonly call: (reply: Reply<A>) => Effect.Effect<void>
}

/** Each item with its channel's answer. */
export type Answers<I, A> = ReadonlyArray<readonly [I, Result.Result<A, ChannelError>]>

/**
 * Calls each adapter once for its batch, all at once, and collects their replies: each item with its
 * channel's answer, batch by batch in the order given. Every call is cut at `timeoutMs`; channels that
 * have no reply by then, or whose adapter dies, get a DeviceFailure. Nothing an adapter does can fail
 * the request: its failures become data.
 *
 * `settle` turns a reply into the channel's answer at the moment the device gives it, not when the
 * whole request is over: what the device said is then taken in the order it happened (a read answered
 * before a later write cannot overwrite it), and checked against the channel as it is then.
 *
 * Each call runs in its own fiber, started at once, so that a call that answers without waiting (a
 * device whose state is in memory) is over before the next one starts and costs neither a timer nor a
 * trip through the scheduler; only calls still running are waited for, up to the deadline they share.
 * How each call ended is told to `counted`, with its adapter (the metrics of device calls).
 */
export const callDevices = <I, A>(
  batches: ReadonlyArray<DeviceBatch<I, A>>,
  channelOf: (item: I) => ChannelId,
  timeoutMs: number,
  settle: (item: I, reply: Result.Result<A, ChannelError>) => Effect.Effect<Result.Result<A, ChannelError>>,
  counted: (adapter: string, end: CallEnd) => void
): Effect.Effect<Answers<I, A>> =>
  Effect.flatMap(startAll(batches, channelOf, settle), (started) =>
    started.every((call) => call.fiber.pollUnsafe() !== undefined)
      // Every device answered from memory: nothing to wait for, no clock to read.
      ? Effect.succeed(started.flatMap((call) => ended(call, call.fiber.pollUnsafe(), timeoutMs, counted)))
      : awaitAll(started, timeoutMs, counted))

/** Starts the batches' calls one after the other (each runs as far as it can before the next starts). */
const startAll = <I, A>(
  batches: ReadonlyArray<DeviceBatch<I, A>>,
  channelOf: (item: I) => ChannelId,
  settle: (item: I, reply: Result.Result<A, ChannelError>) => Effect.Effect<Result.Result<A, ChannelError>>
): Effect.Effect<Array<Started<I, A>>> =>
  batches.reduce<Effect.Effect<Array<Started<I, A>>>>(
    (all, batch) => Effect.flatMap(all, (started) => Effect.map(start(batch, channelOf, settle), (call) => [...started, call])),
    Effect.succeed([])
  )

/** Waits for the calls still running, up to the deadline they share, in the order they were started. */
const awaitAll = <I, A>(
  started: ReadonlyArray<Started<I, A>>,
  timeoutMs: number,
  counted: (adapter: string, end: CallEnd) => void
): Effect.Effect<Answers<I, A>> =>
  Effect.gen(function*() {
    const answers: Array<readonly [I, Result.Result<A, ChannelError>]> = []
    const deadline = (yield* Clock.currentTimeMillis) + timeoutMs
    for (const call of started) {
      let exit = call.fiber.pollUnsafe()
      if (exit === undefined) {
        const left = Math.max(0, deadline - (yield* Clock.currentTimeMillis))
        const ended = yield* Effect.timeoutOption(Fiber.await(call.fiber), Duration.millis(left))
        // A call past the deadline is cut; its channels answer now, without waiting for it to stop.
        if (Option.isNone(ended)) call.fiber.interruptUnsafe()
        exit = Option.getOrUndefined(ended)
      }
      answers.push(...ended(call, exit, timeoutMs, counted))
    }
    return answers
  })

interface Started<I, A> {
  readonly adapter: string
  readonly fiber: Fiber.Fiber<void>
  /** Whether the device answered a channel with a failure so far. */
  readonly replyFailed: () => boolean
  /** Each item with its reply, or a DeviceFailure saying `message` for those with none. */
  readonly collect: (message: string) => Answers<I, A>
}

const start = <I, A>(
  batch: DeviceBatch<I, A>,
  channelOf: (item: I) => ChannelId,
  settle: (item: I, reply: Result.Result<A, ChannelError>) => Effect.Effect<Result.Result<A, ChannelError>>
): Effect.Effect<Started<I, A>> =>
  Effect.suspend(() => {
    const replies = new Map<ChannelId, Result.Result<A, ChannelError>>()
    let replyFailed = false
    const wanted = new Map(batch.items.map((item) => [channelOf(item), item] as const))
    const reply: Reply<A> = (channel, result) =>
      Effect.suspend(() => {
        const item = wanted.get(channel)
        if (item === undefined || replies.has(channel)) return Effect.void
        // Taken before `settle` runs, so that a second reply for the channel is ignored meanwhile.
        const answer = Result.mapError(result, deviceFailure)
        if (Result.isFailure(answer)) replyFailed = true
        replies.set(channel, answer)
        return Effect.map(settle(item, answer), (settled) => void replies.set(channel, settled))
      })
    const collect = (message: string) =>
      batch.items.map((item) => [item, replies.get(channelOf(item)) ?? Result.fail(deviceFailure(message))] as const)
    return Effect.map(Effect.forkChild(batch.call(reply), { startImmediately: true }), (fiber) => ({
      adapter: batch.adapter,
      fiber,
      replyFailed: () => replyFailed,
      collect
    }))
  })

/** The answers of a call that ended with `exit` (`undefined`: cut at the deadline), counted. */
const ended = <I, A>(
  call: Started<I, A>,
  exit: Exit.Exit<void> | undefined,
  timeoutMs: number,
  counted: (adapter: string, end: CallEnd) => void
): Answers<I, A> => {
  counted(call.adapter, {
    failed: call.replyFailed() || (exit !== undefined && Exit.isFailure(exit)),
    timedOut: exit === undefined
  })
  return call.collect(endMessage(exit, timeoutMs))
}

/** What the channels a call left without a reply answer, from how the call ended (`undefined`: cut at the deadline). */
const endMessage = (exit: Exit.Exit<void> | undefined, timeoutMs: number): string =>
  exit === undefined
    ? `device did not answer within ${timeoutMs} ms`
    : Exit.isFailure(exit)
    ? `device failed: ${String(Cause.squash(exit.cause))}`
    : "device gave no answer for this channel"

export const deviceFailure = (message: string): ChannelError => ({ _tag: "DeviceFailure", message })
