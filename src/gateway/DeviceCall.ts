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
  const answered = (): Effect.Effect<Answers<I, A>> => {
    for (const call of started) if (call.exit() === undefined) return awaitAll(started, timeoutMs, counted)
    // Every device answered from memory: nothing to wait for, no clock to read.
    const answers: Array<readonly [I, Result.Result<A, ChannelError>]> = []
    for (const call of started) collectInto(answers, call, call.exit(), timeoutMs, counted)
    return Exit.succeed(answers)
  }
  const starting = eachAtOnce(batches, (batch) => Effect.mapEager(start(batch, channelOf, settle), (call) => void started.push(call)))
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
      collectInto(answers, call, exit, timeoutMs, counted)
    }
    return answers
  })

/**
 * One adapter's call for a request: what it was asked (the batch's items, each at its position), the
 * replies taken so far (by the same positions), and how it ended. One object per call, its parts fields
 * rather than closures: a read or a write makes one on every request.
 */
class Started<I, A> {
  readonly replies: Array<Result.Result<A, ChannelError> | undefined>
  /** Each channel's position, for a batch too long to look through (nearly every batch is one or two). */
  private readonly positions: Map<ChannelId, number> | undefined
  /** Whether the device answered a channel with a failure so far. */
  replyFailed = false
  /** The fiber of a call that did not end when its method returned. */
  fiber: Fiber.Fiber<void> | undefined = undefined
  /** How the call ended as its method returned, if it did. */
  endedAtOnce: Exit.Exit<void> | undefined = undefined

  constructor(
    readonly batch: DeviceBatch<I, A>,
    readonly channelOf: (item: I) => ChannelId
  ) {
    const { items } = batch
    this.replies = new Array(items.length).fill(undefined)
    this.positions = items.length > lookedThrough ? new Map(items.map((item, at) => [channelOf(item), at])) : undefined
  }

  /** How the call ended, if it has. */
  exit(): Exit.Exit<void> | undefined {
    return this.endedAtOnce ?? this.fiber?.pollUnsafe()
  }

  /** Where `channel` is in the batch; -1 for a channel not asked. */
  private positionOf(channel: ChannelId): number {
    if (this.positions !== undefined) return this.positions.get(channel) ?? -1
    let at = 0
    for (const item of this.batch.items) {
      if (this.channelOf(item) === channel) return at
      at++
    }
    return -1
  }

  /** Takes a reply, and tells the position of the item it answers; -1 for one not asked or answered before. */
  take(channel: ChannelId, result: Result.Result<A, string>): number {
    const at = this.positionOf(channel)
    if (at < 0 || this.replies[at] !== undefined) return -1
    // Taken before it is settled, so that a second reply for the channel is ignored meanwhile.
    const answer = Result.mapError(result, deviceFailure)
    if (Result.isFailure(answer)) this.replyFailed = true
    this.replies[at] = answer
    return at
  }

  /** Each item with its reply, or a DeviceFailure saying `message` for those with none, appended to `answers`. */
  collectInto(answers: Array<readonly [I, Result.Result<A, ChannelError>]>, message: string): void {
    let at = 0
    for (const item of this.batch.items) answers.push([item, this.replies[at++] ?? Result.fail(deviceFailure(message))])
  }
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
  const call = new Started(batch, channelOf)
  const settled = (at: number): Effect.Effect<void> => {
    const answer = call.replies[at]
    const item = batch.items[at]
    if (answer === undefined || item === undefined) return Exit.void
    return Effect.mapEager(settle(item, answer), (answered) => void (call.replies[at] = answered))
  }
  const givenNow: Array<number> = []
  let calling = true
  const reply: Reply<A> = Object.assign(
    (channel: ChannelId, result: Result.Result<A, string>) =>
      Effect.suspend(() => {
        const taken = call.take(channel, result)
        return taken < 0 ? Effect.void : settled(taken)
      }),
    {
      now: (channel: ChannelId, result: Result.Result<A, string>) => {
        const taken = calling ? call.take(channel, result) : -1
        if (taken >= 0) givenNow.push(taken)
      }
    }
  )
  const running = callOf(batch, reply)
  calling = false
  // The answers given now are settled before anything else happens, the call's fiber included.
  const settledNow = eachAtOnce(givenNow, settled)
  // An adapter's method that answered everything now returns an `Exit`: the call is over already.
  const ended = doneAlready(running)
  if (ended !== undefined) {
    call.endedAtOnce = ended
    return Effect.mapEager(settledNow, () => call)
  }
  return Effect.andThen(
    settledNow,
    Effect.map(Effect.forkChild(running, { startImmediately: true }), (fiber) => {
      call.fiber = fiber
      return call
    })
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

/** The answers of a call that ended with `exit` (`undefined`: cut at the deadline), counted, appended to `answers`. */
const collectInto = <I, A>(
  answers: Array<readonly [I, Result.Result<A, ChannelError>]>,
  call: Started<I, A>,
  exit: Exit.Exit<void> | undefined,
  timeoutMs: number,
  counted: (adapter: string, end: CallEnd) => void
): void => {
  const failed = call.replyFailed || (exit !== undefined && Exit.isFailure(exit))
  counted(call.batch.adapter, exit === undefined ? (failed ? failedAndCut : cut) : failed ? failedOnly : ok)
  call.collectInto(answers, endMessage(exit, timeoutMs))
}

/** A batch up to this long is looked through for a channel's position; a longer one keeps a map of them. */
const lookedThrough = 16

// How a call ended, made once: a call's end is counted on every request.
const ok: CallEnd = { failed: false, timedOut: false }
const failedOnly: CallEnd = { failed: true, timedOut: false }
const cut: CallEnd = { failed: false, timedOut: true }
const failedAndCut: CallEnd = { failed: true, timedOut: true }

/** What the channels a call left without a reply answer, from how the call ended (`undefined`: cut at the deadline). */
const endMessage = (exit: Exit.Exit<void> | undefined, timeoutMs: number): string =>
  exit === undefined
    ? `device did not answer within ${timeoutMs} ms`
    : Exit.isFailure(exit)
    ? `device failed: ${String(Cause.squash(exit.cause))}`
    : "device gave no answer for this channel"

export const deviceFailure = (message: string): ChannelError => ({ _tag: "DeviceFailure", message })
