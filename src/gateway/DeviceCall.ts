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
import { doneAlready } from "./AlreadyDone.ts"
import { eachAtOnce } from "./EachInOrder.ts"

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
 * The calls are made one after the other. A call that answered everything at once (`reply.now`, and an
 * `Exit` returned: a device whose state is in memory) is over when its method returns: it costs neither
 * a fiber, nor a timer, nor a trip through the scheduler. Any other call runs in a fiber of its own,
 * started at once, and only calls still running are waited for, up to the deadline they share.
 * How each call ended is told to `counted`, with its adapter (the metrics of device calls).
 *
 * The calls are made when this is called, not when its effect runs: call it when its effect is to run (a
 * route's program being made, outside any fiber, or a step of a running fiber). When every device answered at once and every answer was settled at once, the
 * answers come as an `Exit`, and the request takes no step of the runtime for its devices.
 */
export const callDevices = <I, A>(
  batches: ReadonlyArray<DeviceBatch<I, A>>,
  channelOf: (item: I) => ChannelId,
  timeoutMs: number,
  settle: (item: I, reply: Result.Result<A, ChannelError>) => Effect.Effect<Result.Result<A, ChannelError>>,
  counted: (adapter: string, end: CallEnd) => void
): Effect.Effect<Answers<I, A>> => {
  const started: Array<Started<I, A>> = []
  const starting = eachAtOnce(batches, (batch) => Effect.mapEager(start(batch, channelOf, settle), (call) => void started.push(call)))
  const answered = () =>
    started.every((call) => call.exit() !== undefined)
      // Every device answered from memory: nothing to wait for, no clock to read.
      ? Exit.succeed(started.flatMap((call) => ended(call, call.exit(), timeoutMs, counted)))
      : awaitAll(started, timeoutMs, counted)
  return Effect.flatMapEager(starting, answered)
}

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
      let exit = call.exit()
      if (exit === undefined && call.fiber !== undefined) {
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
  /** The fiber of a call that did not end when its method returned. */
  readonly fiber: Fiber.Fiber<void> | undefined
  /** How the call ended, if it has. */
  readonly exit: () => Exit.Exit<void> | undefined
  /** Whether the device answered a channel with a failure so far. */
  readonly replyFailed: () => boolean
  /** Each item with its reply, or a DeviceFailure saying `message` for those with none. */
  readonly collect: (message: string) => Answers<I, A>
}

/**
 * Starts the call of `batch`, now: an `Exit` when the call ended as its method returned
 * and every answer it gave then was settled at once.
 */
const start = <I, A>(
  batch: DeviceBatch<I, A>,
  channelOf: (item: I) => ChannelId,
  settle: (item: I, reply: Result.Result<A, ChannelError>) => Effect.Effect<Result.Result<A, ChannelError>>
): Effect.Effect<Started<I, A>> => {
  const replies = new Map<ChannelId, Result.Result<A, ChannelError>>()
  let replyFailed = false
  const wanted = new Map(batch.items.map((item) => [channelOf(item), item] as const))
  /** Takes a reply, and tells which item it answers; `undefined` for one not asked or answered before. */
  const take = (channel: ChannelId, result: Result.Result<A, string>): readonly [I, Result.Result<A, ChannelError>] | undefined => {
    const item = wanted.get(channel)
    if (item === undefined || replies.has(channel)) return undefined
    // Taken before `settle` runs, so that a second reply for the channel is ignored meanwhile.
    const answer = Result.mapError(result, deviceFailure)
    if (Result.isFailure(answer)) replyFailed = true
    replies.set(channel, answer)
    return [item, answer]
  }
  const settled = ([item, answer]: readonly [I, Result.Result<A, ChannelError>]): Effect.Effect<void> => {
    return Effect.mapEager(settle(item, answer), (answered) => void replies.set(channelOf(item), answered))
  }
  const givenNow: Array<readonly [I, Result.Result<A, ChannelError>]> = []
  let calling = true
  const reply: Reply<A> = Object.assign(
    (channel: ChannelId, result: Result.Result<A, string>) =>
      Effect.suspend(() => {
        const taken = take(channel, result)
        return taken === undefined ? Effect.void : settled(taken)
      }),
    {
      now: (channel: ChannelId, result: Result.Result<A, string>) => {
        const taken = calling ? take(channel, result) : undefined
        if (taken !== undefined) givenNow.push(taken)
      }
    }
  )
  const running = callOf(batch, reply)
  calling = false
  const collect = (message: string) =>
    batch.items.map((item) => [item, replies.get(channelOf(item)) ?? Result.fail(deviceFailure(message))] as const)
  const common = { adapter: batch.adapter, replyFailed: () => replyFailed, collect }
  // The answers given now are settled before anything else happens, the call's fiber included.
  const settledNow = eachAtOnce(givenNow, settled)
  // An adapter's method that answered everything now returns an `Exit`: the call is over already.
  const ended = doneAlready(running)
  if (ended !== undefined) {
    const over: Started<I, A> = { ...common, fiber: undefined, exit: () => ended }
    return Effect.mapEager(settledNow, () => over)
  }
  return Effect.andThen(
    settledNow,
    Effect.map(Effect.forkChild(running, { startImmediately: true }), (fiber): Started<I, A> => ({ ...common, fiber, exit: () => fiber.pollUnsafe() }))
  )
}

/**
 * The adapter's call for `batch`. Its method runs here, in the request's fiber: an adapter whose method
 * throws is a device that died, as one whose effect dies in its fiber is.
 */
const callOf = <I, A>(batch: DeviceBatch<I, A>, reply: Reply<A>): Effect.Effect<void> => {
  try {
    return batch.call(reply)
  } catch (defect) {
    return Exit.die(defect)
  }
}

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
