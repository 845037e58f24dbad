import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type { ChannelError } from "../domain/ChannelError.ts"
import type { ChannelId } from "../domain/Identifier.ts"
import { kindValueType } from "../domain/Kind.ts"
import type { FetchResults, ResultKey, SendResults } from "../domain/Outcome.ts"
import type { SendTarget } from "../domain/Request.ts"
import type { ChannelSelector } from "../domain/Selector.ts"
import type { Value } from "../domain/Value.ts"
import { byKey, inOrder } from "../domain/ListOrder.ts"
import type { Adapter, CallContext, Reply } from "./Adapter.ts"
import { type Answers, callDevices, type DeviceBatch, deviceFailure } from "./DeviceCall.ts"
import { deviceCallCounter } from "./DeviceCallMetrics.ts"
import { groupBy } from "./Multimap.ts"
import type { HomeView } from "./HomeIndex.ts"
import type { ChannelRecord } from "./HomeStore.ts"
import { Registry } from "./Registry.ts"
import { resolveTargets } from "./TargetResolution.ts"

/**
 * Each resolves its selectors on `home`: the whole home unless told, or the part of it a scoped caller
 * sees (ScopedHome), where what lies outside the scope does not exist and is answered as such.
 */
export interface DispatchShape {
  /** Reads the latest value of every getter the selectors match. */
  readonly fetch: (selectors: ReadonlyArray<ChannelSelector>, context: CallContext, home?: HomeView) => Effect.Effect<FetchResults>
  /** Sends each target's value to every setter its selectors match; the last value wins per setter. */
  readonly send: (targets: ReadonlyArray<SendTarget>, context: CallContext, home?: HomeView) => Effect.Effect<SendResults>
  /**
   * `fetch` with the devices called now, as this is called: for a program made when it is to run (a route's,
   * RouteProgram). Done, an `Exit`, when every device answered at once; what is left is for a fiber to run.
   */
  readonly fetchNow: (selectors: ReadonlyArray<ChannelSelector>, context: CallContext, home?: HomeView) => Effect.Effect<FetchResults>
  /** `send` with the devices called now, as `fetchNow`. */
  readonly sendNow: (targets: ReadonlyArray<SendTarget>, context: CallContext, home?: HomeView) => Effect.Effect<SendResults>
}

/**
 * The outcome of each channel answered and each decided `before` the call (what the selectors named but
 * is not there, a write of the wrong type), sorted by key. With none decided before, the channels' keys
 * are all different and need no map.
 */
const outcomesOf = <I, A>(
  before: ReadonlyMap<ResultKey, Result.Result<A, ChannelError>>,
  answered: Answers<I, A>,
  keyOf: (item: I) => ResultKey
): ReadonlyArray<{ readonly key: ResultKey; readonly result: Result.Result<A, ChannelError> }> => {
  if (before.size === 0) return inOrder(answered.map(([item, result]) => ({ key: keyOf(item), result })), byKey)
  const results = new Map(before)
  for (const [item, result] of answered) results.set(keyOf(item), result)
  return inOrder(Array.from(results, ([key, result]) => ({ key, result })), byKey)
}

/** What the selectors named but is not there, as results. */
const failuresOf = <A>(missing: ReadonlyMap<ResultKey, ChannelError>): ReadonlyMap<ResultKey, Result.Result<A, ChannelError>> =>
  missing.size === 0 ? noResults : new Map(Array.from(missing, ([key, error]) => [key, Result.fail(error)]))

const noResults: ReadonlyMap<ResultKey, never> = new Map<ResultKey, never>()

/** A value to send to a setter. */
interface Write {
  readonly record: ChannelRecord
  readonly value: Value
}

const recordOfWrite = (write: Write): ChannelRecord => write.record

/** The writes a request's targets make, and the outcomes decided before any call (what is missing, a wrong type). */
interface WritePlan {
  readonly writes: ReadonlyArray<Write>
  readonly decided: ReadonlyMap<ResultKey, Result.Result<void, ChannelError>>
}

/**
 * What `targets` ask of each setter. The last value sent to a setter in one request wins, whatever came
 * before it; one target names each channel once, so only a later target can name one again, and the
 * writes are kept by channel only then (nearly every write is one target). Maps are made only when needed.
 */
const planWrites = (home: HomeView, targets: ReadonlyArray<SendTarget>): WritePlan => {
  let decided: Map<ResultKey, Result.Result<void, ChannelError>> | undefined
  const byChannel = targets.length > 1 ? new Map<ChannelId, Write>() : undefined
  const writes: Array<Write> = []
  for (const target of targets) {
    const { channels, missing } = resolveTargets(home, "setter", target.selectors)
    for (const [key, error] of missing) (decided ??= new Map()).set(key, Result.fail(error))
    for (const record of channels) {
      decided?.delete(record.id)
      byChannel?.delete(record.id)
      const expected = kindValueType(record.kind)
      if (expected !== target.value._tag) (decided ??= new Map()).set(record.id, Result.fail({ _tag: "TypeMismatch", expected, got: target.value._tag }))
      else if (byChannel !== undefined) byChannel.set(record.id, { record, value: target.value })
      else writes.push({ record, value: target.value })
    }
  }
  return { writes: byChannel === undefined ? writes : Array.from(byChannel.values()), decided: decided ?? noResults }
}

/** `items` grouped by adapter: one group, without a map, when they are all of one (nearly every request). */
const byAdapter = <I, K>(items: ReadonlyArray<I>, adapterOf: (item: I) => K): Iterable<readonly [K, ReadonlyArray<I>]> => {
  const [first] = items
  if (first === undefined) return []
  const adapter = adapterOf(first)
  return items.every((item) => adapterOf(item) === adapter) ? [[adapter, items]] : groupBy(items, adapterOf)
}

export interface DispatchOptions {
  /** How long a device may take to answer a batch (`--device-timeout`): after it, its channels' DeviceFailure. */
  readonly deviceTimeout: Duration.Input
}

/**
 * Reads and writes on devices (docs/reference.md §6.4, §6.5): resolves targets, checks value types
 * against kinds, groups per adapter and calls each adapter once per request, concurrently, each call
 * bounded by the device timeout. A failing or hung adapter only affects its own channels.
 */
export class Dispatch extends Context.Service<Dispatch, DispatchShape>()("app/Dispatch") {
  static readonly layer = (options: DispatchOptions) => Layer.effect(
    Dispatch,
    Effect.gen(function*() {
      const registry = yield* Registry
      const deviceTimeoutMs = Duration.toMillis(Duration.fromInputUnsafe(options.deviceTimeout))
      // Counted in the metric registry the gateway is built with.
      const counted = deviceCallCounter(yield* Effect.context<never>())

      /**
       * Calls each adapter once, concurrently, for all its items; answers every item with its channel's
       * answer. The channels of an adapter that is gone answer a DeviceFailure.
       */
      const callAdapters = <A, I>(
        items: ReadonlyArray<I>,
        recordOf: (item: I) => ChannelRecord,
        call: (adapter: Adapter, group: ReadonlyArray<I>, reply: Reply<A>) => Effect.Effect<void>,
        settle: (item: I, answer: Result.Result<A, ChannelError>) => Effect.Effect<Result.Result<A, ChannelError>>
      ): Effect.Effect<Answers<I, A>> => {
        const batches: Array<DeviceBatch<I, A>> = []
        const gone: Array<readonly [I, Result.Result<A, ChannelError>]> = []
        for (const [adapterId, group] of byAdapter(items, (item) => recordOf(item).adapter)) {
          const adapter = registry.adapter(adapterId)
          if (Option.isSome(adapter)) batches.push({ adapter: adapterId, items: group, call: (reply) => call(adapter.value, group, reply) })
          else {
            const failure = Result.fail(deviceFailure(`adapter ${adapterId} is not connected`))
            for (const item of group) gone.push([item, failure])
          }
        }
        if (batches.length === 0) return Effect.succeed(gone)
        const answering = callDevices(batches, (item) => recordOf(item).id, deviceTimeoutMs, settle, counted)
        return gone.length === 0 ? answering : Effect.map(answering, (answers) => [...gone, ...answers])
      }

      // fetch and send are plain code around the adapters' calls: they run on every read and write.
      const fetchNow = (selectors: ReadonlyArray<ChannelSelector>, context: CallContext, home: HomeView = registry.index) => {
        const { channels, missing } = resolveTargets(home, "getter", selectors)
        const answering = callAdapters<Option.Option<Value>, ChannelRecord>(
          channels,
          (record) => record,
          (adapter, group, reply) => adapter.fetch(group.map((record) => record.id), context, reply),
          (record, answer) => {
            const checked = checkRead(home.channel(record.id), record.id, answer)
            return Result.isSuccess(checked) && Option.isSome(checked.success)
              ? Effect.mapEager(registry.observeNow(record.id, checked.success.value), () => checked)
              : Exit.succeed(checked)
          }
        )
        const outcomes = (answered: Answers<ChannelRecord, Option.Option<Value>>) =>
          outcomesOf(failuresOf<Option.Option<Value>>(missing), answered, (record) => record.id)
        return Effect.mapEager(answering, outcomes)
      }

      const sendNow = (targets: ReadonlyArray<SendTarget>, context: CallContext, home: HomeView = registry.index) => {
        const { writes, decided } = planWrites(home, targets)
        const answering = callAdapters<void, Write>(
          writes,
          recordOfWrite,
          (adapter, group, reply) => adapter.send(group.map((g) => ({ channel: g.record.id, value: g.value })), context, reply),
          ({ record, value }, answer) => {
            const checked = checkWrite(home.channel(record.id), record.id, value, answer)
            return Result.isSuccess(checked) ? Effect.mapEager(registry.markSentNow(record.id), () => checked) : Exit.succeed(checked)
          }
        )
        const outcomes = (answered: Answers<Write, void>) =>
          outcomesOf(decided, answered, (write) => write.record.id)
        return Effect.mapEager(answering, outcomes)
      }

      return Dispatch.of({
        fetch: (selectors, context, home) => Effect.suspend(() => fetchNow(selectors, context, home)),
        send: (targets, context, home) => Effect.suspend(() => sendNow(targets, context, home)),
        fetchNow,
        sendNow
      })
    })
  )
}

/**
 * A read as it stands when the device answers: a getter that left while it was read (a reload) is
 * missing, as it would be for a new request; a value of the wrong type for the getter's kind now is
 * the device's fault, a DeviceFailure, and is not taken.
 */
const checkRead = (
  current: ChannelRecord | undefined,
  id: ChannelId,
  answer: Result.Result<Option.Option<Value>, ChannelError>
): Result.Result<Option.Option<Value>, ChannelError> => {
  if (current?.mechanism !== "getter") return Result.fail({ _tag: "NoSuchGetter", id })
  if (Result.isFailure(answer) || Option.isNone(answer.success)) return answer
  const expected = kindValueType(current.kind)
  const got = answer.success.value._tag
  return got === expected
    ? answer
    : Result.fail(deviceFailure(`device answered a ${got} for a channel of type ${expected}`))
}

/**
 * A write as it stands when the device answers: a setter that left while the write was in flight is
 * missing, and one whose kind changed no longer takes the value (adapters refuse such a write when they
 * apply it, see Adapter.send), whatever the device said.
 */
const checkWrite = (
  current: ChannelRecord | undefined,
  id: ChannelId,
  value: Value,
  answer: Result.Result<void, ChannelError>
): Result.Result<void, ChannelError> => {
  if (current?.mechanism !== "setter") return Result.fail({ _tag: "NoSuchSetter", id })
  const expected = kindValueType(current.kind)
  return expected === value._tag ? answer : Result.fail({ _tag: "TypeMismatch", expected, got: value._tag })
}
