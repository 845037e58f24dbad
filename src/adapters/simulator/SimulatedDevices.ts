import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberMap from "effect/FiberMap"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type * as Scope from "effect/Scope"
import * as Semaphore from "effect/Semaphore"
import type { Adapter, Connection, DeviceHost, FirstValue, Reply } from "../../gateway/Adapter.ts"
import { eachInOrder } from "../../gateway/EachInOrder.ts"
import type { AdapterId, ChannelId, ServiceId } from "../../domain/Identifier.ts"
import { kindValueType } from "../../domain/Kind.ts"
import type { User } from "../../domain/User.ts"
import { type Value, valueEquals } from "../../domain/Value.ts"
import { describeService, diffHomes, type HomeDiff, sameDescription, sameGetterBehaviour, withoutLeavingChannels } from "./HomeDiff.ts"
import { ValueJson } from "../../vocabulary/common/ValueJson.ts"
import type { Cycle, Home, SimulatedGetter, SimulatedService, SimulatedSetter } from "./HomeFile.ts"

/** The simulated devices of one home, as the gateway reaches them (through `adapter`) and as tests see them. */
export interface SimulatedDevices {
  readonly adapter: Adapter
  /** The home in force: the last one applied, without devices the gateway refused. */
  readonly home: Effect.Effect<Home>
  /** Makes `home` the home in force: devices leave, arrive or change; unchanged ones are left alone. Answers what changed. */
  readonly apply: (home: Home) => Effect.Effect<HomeDiff>
  /** What a getter holds now (`None`: no value yet, or no such getter). */
  readonly getterValue: (getter: ChannelId) => Effect.Effect<Option.Option<Value>>
  /** The last value written to a setter (`None`: none yet, or no such setter). */
  readonly lastSent: (setter: ChannelId) => Effect.Effect<Option.Option<Value>>
  /** Who made the last write to a setter: the user vocabulary B passes, `None` for A (or no write yet). */
  readonly lastWriter: (setter: ChannelId) => Effect.Effect<Option.Option<User>>
}

interface GetterState {
  service: ServiceId
  spec: SimulatedGetter
  value: Option.Option<Value>
}

interface SetterState {
  service: ServiceId
  spec: SimulatedSetter
  last: Option.Option<Value>
  writer: Option.Option<User>
}

/** The state of each channel of the home in force, by id. */
interface ChannelStates {
  readonly getters: Map<ChannelId, GetterState>
  readonly setters: Map<ChannelId, SetterState>
}

/** Each channel of `services` as it starts: a getter at its initial value, a setter with nothing written yet. */
const startingStates = (services: Iterable<SimulatedService>): ChannelStates => {
  const getters = new Map<ChannelId, GetterState>()
  const setters = new Map<ChannelId, SetterState>()
  for (const { id: service, getters: gs, setters: ss } of services) {
    for (const spec of gs) getters.set(spec.id, { service, spec, value: initialValue(spec) })
    for (const spec of ss) setters.set(spec.id, { service, spec, last: Option.none(), writer: Option.none() })
  }
  return { getters, setters }
}

/** A getter that (re)started, with the value it reports (a new getter's initial value, a reset one's). */
interface StartedGetter {
  readonly id: ChannelId
  readonly service: ServiceId
  readonly spec: SimulatedGetter
  readonly report: Option.Option<Value>
}

/** A getter starts at its `value`, else at the first value of its cycle. */
const initialValue = (getter: SimulatedGetter): Option.Option<Value> =>
  Option.isSome(getter.value) ? getter.value : Option.fromUndefinedOr(getter.cycle?.values[0])

const sameValue = Option.makeEquivalence(valueEquals)

/** No device left to wait for: what a batch answered at once leaves. */
const noneWaiting: ReadonlyMap<ServiceId, ReadonlyArray<never>> = new Map()

/** Groups channels by the device that owns them, keeping their order; ids of no device are set apart. */
const byService = <A>(items: ReadonlyArray<A>, channel: (a: A) => ChannelId, owner: (id: ChannelId) => ServiceId | undefined) => {
  const groups = new Map<ServiceId, Array<A>>()
  const unknown: Array<A> = []
  for (const item of items) {
    const service = owner(channel(item))
    if (service === undefined) unknown.push(item)
    else {
      const group = groups.get(service)
      if (group === undefined) groups.set(service, [item])
      else group.push(item)
    }
  }
  return { groups, unknown }
}

/** The values a device's getters start from, as it connects the first time. */
const initialValues = (service: SimulatedService): ReadonlyArray<FirstValue> => {
  const values: Array<FirstValue> = []
  for (const getter of service.getters) {
    const value = initialValue(getter)
    if (Option.isSome(value)) values.push({ channel: getter.id, value: value.value })
  }
  return values
}

/**
 * What the gateway is told of each device to connect, with the first values of its getters: described one
 * at a time, when asked, so that a large home's descriptions and values die young, one device at a time.
 */
function* connectionsOf(
  services: ReadonlyArray<SimulatedService>,
  firstValues: (service: SimulatedService) => ReadonlyArray<FirstValue>
): Generator<Connection> {
  for (const service of services) yield { service: describeService(service), firstValues: firstValues(service) }
}

/**
 * Builds the devices of a home and connects their adapter through `connect` (the Registry's `register`).
 * Device state lives in plain maps, changed only while an effect of this module runs; cycles are fibers
 * of a FiberMap in the caller's scope, so they end when it closes.
 */
export const makeSimulatedDevices = Effect.fnUntraced(function*(
  adapterId: AdapterId,
  connect: (adapter: Adapter) => Effect.Effect<DeviceHost, never, Scope.Scope>
) {
  let home: Home = { adapter: adapterId, services: [] }
  const services = new Map<ServiceId, SimulatedService>()
  /**
   * Made from the devices when first needed (a read, a write, a cycle's value, a reload): until then
   * every channel is as it started, which the home file says. A large home's start makes no state of
   * its 100,000 channels for a first listing that reads none of them.
   */
  let states: ChannelStates | undefined
  const channels = (): ChannelStates => (states ??= startingStates(services.values()))
  const cycles = yield* FiberMap.make<ChannelId>()
  const applying = yield* Semaphore.make(1)
  // Set once the gateway took the adapter, before any device exists (`apply` brings them in): nothing reports before.
  let gateway: DeviceHost | undefined

  /**
   * A getter takes a value and reports it, in one synchronous step (`reportValueNow`), so that watchers
   * see values in the order they were taken. What it returns is an `Exit` unless the gateway has a warning to log.
   */
  const takeValue = (id: ChannelId, value: Value): Effect.Effect<void> => {
    const state = channels().getters.get(id)
    if (state === undefined || gateway === undefined || kindValueType(state.spec.kind) !== value._tag) return Exit.void
    state.value = Option.some(value)
    return gateway.reportValueNow(id, value)
  }

  const runCycle = (id: ChannelId, cycle: Cycle, start: number) =>
    Effect.gen(function*() {
      for (let i = start;; i++) {
        yield* Effect.sleep(Duration.millis(cycle.every_ms))
        const next = cycle.values[i % cycle.values.length]
        if (next !== undefined) yield* takeValue(id, next)
      }
    })

  /**
   * One device's share of a batch: a single wait of `latency_ms` for all its channels, then each
   * channel's answer, or the failure the file asks for (`timeout` never answers). Plain code around the
   * effects, since every read and write of the simulated home comes through here.
   */
  const onDevice = <A, I>(
    service: ServiceId,
    items: ReadonlyArray<I>,
    channel: (item: I) => ChannelId,
    reply: Reply<A>,
    answer: (item: I) => Effect.Effect<Result.Result<A, string>>
  ): Effect.Effect<void> =>
    Effect.suspend(() => {
      const spec = services.get(service)
      if (spec === undefined) {
        // Disconnected by a reload while this batch was being sorted out.
        return eachInOrder(items, (item) => reply(channel(item), Result.fail(`${service} is no longer in the simulated home`)))
      }
      if (spec.fail === "timeout") return Effect.never
      const answers = spec.fail === "error"
        ? eachInOrder(items, (item) => reply(channel(item), Result.fail(failedOnPurpose(service))))
        : eachInOrder(items, (item) => Effect.flatMap(answer(item), (result) => reply(channel(item), result)))
      return spec.latency_ms > 0 ? Effect.andThen(Effect.sleep(Duration.millis(spec.latency_ms)), answers) : answers
    })

  /** What a device with `"fail": "error"` answers for each channel. */
  const failedOnPurpose = (service: ServiceId) => `${service} failed (simulated "fail": "error")`

  /** What a getter holds now: it may have left the home while its device waited. */
  const reading = (id: ChannelId): Result.Result<Option.Option<Value>, string> => {
    const state = channels().getters.get(id)
    return state === undefined ? Result.fail(`no getter ${id} in the simulated home`) : Result.succeed(state.value)
  }

  /** Devices answer side by side, each after its own latency; a lone device needs no fiber of its own. */
  const eachDevice = <K, V>(groups: ReadonlyMap<K, V>, onGroup: (group: readonly [K, V]) => Effect.Effect<void>) =>
    groups.size > 1 ? Effect.forEach(groups, onGroup, { concurrency: "unbounded", discard: true }) : eachInOrder(groups, onGroup)

  /**
   * The devices of a batch without latency answer from memory, at once: `answerNow` for each item, or the
   * failure the file asks for (`reply.now`). Answers the devices left to wait for, as `onDevice` says.
   */
  const answeringNow = <A, I>(
    groups: ReadonlyMap<ServiceId, ReadonlyArray<I>>,
    channel: (item: I) => ChannelId,
    reply: Reply<A>,
    answerNow: (item: I) => void
  ): ReadonlyMap<ServiceId, ReadonlyArray<I>> => {
    // Made only for a device that waits: nearly every read and write of a simulated home waits for none.
    let waiting: Map<ServiceId, ReadonlyArray<I>> | undefined
    for (const [service, items] of groups) {
      const spec = services.get(service)
      if (spec === undefined || spec.latency_ms > 0 || spec.fail === "timeout") (waiting ??= new Map()).set(service, items)
      else if (spec.fail === "error") for (const item of items) reply.now(channel(item), Result.fail(failedOnPurpose(service)))
      else for (const item of items) answerNow(item)
    }
    return waiting ?? noneWaiting
  }

  type Write = { readonly channel: ChannelId; readonly value: Value }

  /**
   * A write applied to its setter, which may have left the home, or changed kind, while its device
   * waited: the setter's answer, and what is left to run before it is given (an `Exit`: nothing).
   */
  const write = (w: Write, writer: Option.Option<User>): readonly [Result.Result<void, string>, Effect.Effect<void>] => {
    const state = channels().setters.get(w.channel)
    if (state === undefined) return [Result.fail(`no setter ${w.channel} in the simulated home`), Exit.void]
    const expected = kindValueType(state.spec.kind)
    if (expected !== w.value._tag) return [Result.fail(`${w.channel} now takes ${expected} values, not ${w.value._tag}`), Exit.void]
    state.last = Option.some(w.value)
    state.writer = writer
    const applied = state.spec.drives !== undefined
      ? takeValue(state.spec.drives, w.value)
      : Effect.logInfo(`${w.channel} received ${JSON.stringify(ValueJson.write(w.value))}`)
    return [Result.void, applied]
  }

  const adapter: Adapter = {
    id: adapterId,
    // A device without latency answers from memory, at once (`reply.now`): a read or a write of such
    // devices only is over when the method returns. The others answer as `onDevice` says.
    fetch: (ids, _context, reply) => {
      const { getters } = channels()
      const { groups, unknown } = byService(ids, (id) => id, (id) => getters.get(id)?.service)
      for (const id of unknown) reply.now(id, Result.fail(`no getter ${id} in the simulated home`))
      const waiting = answeringNow(groups, (id) => id, reply, (id) => reply.now(id, reading(id)))
      return waiting.size === 0
        ? Effect.void
        : eachDevice(waiting, ([service, ids]) => onDevice(service, ids, (id) => id, reply, (id) => Effect.sync(() => reading(id))))
    },
    send: (writes, context, reply) => {
      const { setters } = channels()
      const { groups, unknown } = byService(writes, (w) => w.channel, (id) => setters.get(id)?.service)
      for (const w of unknown) reply.now(w.channel, Result.fail(`no setter ${w.channel} in the simulated home`))
      // A write whose log is still to run (a setter that drives nothing) is answered after it, as one that waited is.
      const logged: Array<Effect.Effect<void>> = []
      const waiting = answeringNow(groups, (w) => w.channel, reply, (w) => {
        const [result, applied] = write(w, context.user)
        if (Exit.isExit(applied)) reply.now(w.channel, result)
        else logged.push(Effect.andThen(applied, reply(w.channel, result)))
      })
      return waiting.size === 0 && logged.length === 0 ? Effect.void : Effect.andThen(
        eachInOrder(logged, (answer) => answer),
        eachDevice(waiting, ([service, batch]) =>
          onDevice(service, batch, (w) => w.channel, reply, (w) =>
            Effect.suspend(() => {
              const [result, applied] = write(w, context.user)
              return Effect.as(applied, result)
            })))
      )
    },
    refusesWatch: (channel, filter) =>
      filter._tag === "Always" && channels().getters.get(channel)?.spec.watch === "thresholds-only"
        ? Option.some(`${channel} reports only when its value crosses a threshold: watch it with a range`)
        : Option.none()
  }

  /**
   * Brings the channel state of the home in force in line with `next`: channels that left are dropped
   * (their cycles stopped), channels that go on as they were keep their value and cycle, the others start
   * from their initial value. Returns the getters that (re)started.
   */
  const restartChannels = (next: Home, { getters, setters }: ChannelStates) =>
    Effect.gen(function*() {
      const started: Array<StartedGetter> = []
      // Filled in loops, ids only: a large home's channels make no object each on the way.
      const nextGetters = new Set<ChannelId>()
      const nextSetters = new Set<ChannelId>()
      for (const s of next.services) {
        for (const spec of s.getters) nextGetters.add(spec.id)
        for (const spec of s.setters) nextSetters.add(spec.id)
      }
      for (const id of [...getters.keys()].filter((id) => !nextGetters.has(id))) {
        getters.delete(id)
        yield* FiberMap.remove(cycles, id)
      }
      for (const id of [...setters.keys()].filter((id) => !nextSetters.has(id))) setters.delete(id)
      for (const { id: service, setters: specs } of next.services) {
        for (const spec of specs) {
          const state = setters.get(spec.id)
          setters.set(spec.id, { service, spec, last: state?.last ?? Option.none(), writer: state?.writer ?? Option.none() })
        }
      }
      for (const { id: service, getters: specs } of next.services) {
        for (const spec of specs) {
          const { id } = spec
          const state = getters.get(id)
          if (state !== undefined && sameGetterBehaviour(state.spec, spec)) {
            state.spec = spec
            state.service = service
            continue
          }
          // A getter new to the home has no cycle to stop yet.
          if (state !== undefined) yield* FiberMap.remove(cycles, id)
          const value = initialValue(spec)
          // A device that connects with a value has reported it: `updated` is set, watchers see it.
          const changed = state === undefined || !sameValue(state.value, value)
          getters.set(id, { service, spec, value })
          started.push({ id, service, spec, report: changed ? value : Option.none() })
        }
      }
      return started
    })

  /** A getter's cycle from its start. Without an initial `value` the first listed value is already held: it goes on from the second. */
  const startCycle = (spec: SimulatedGetter, cycle: Cycle) =>
    FiberMap.run(cycles, spec.id)(runCycle(spec.id, cycle, Option.isSome(spec.value) ? 0 : 1))

  const forget = (service: SimulatedService) =>
    Effect.gen(function*() {
      services.delete(service.id)
      for (const s of service.setters) states?.setters.delete(s.id)
      for (const g of service.getters) {
        states?.getters.delete(g.id)
        yield* FiberMap.remove(cycles, g.id)
      }
    })

  const host = yield* connect(adapter)
  gateway = host

  const apply = Effect.fn("Simulator.apply")(function*(next: Home) {
    // A change is worked out against the channels of the home in force, before `services` follows `next`.
    if (home.services.length > 0) channels()
    const diff = diffHomes(home, next)
    for (const id of diff.removed) {
      services.delete(id)
      yield* host.removeService(id)
    }
    for (const { before, after } of diff.changed) {
      const kept = withoutLeavingChannels(before, after)
      if (kept.getters.length < before.getters.length || kept.setters.length < before.setters.length) {
        // Should this fail, the full description below fails the same way and is logged there.
        yield* host.upsertService(kept).pipe(Effect.ignore)
      }
    }
    // The first home: every channel starts as the file says, and its state waits for a first use (a
    // large home's start makes no object per channel here); its devices connect with their initial values.
    const firstHome = states === undefined
    for (const service of next.services) services.set(service.id, service)
    const started = states === undefined ? [] : yield* restartChannels(next, states)
    const toConnect = [...diff.changed.filter((c) => !sameDescription(c.before, c.after)).map((c) => c.after), ...diff.added]
    // A device connects with the values its getters (re)start from; the others' getters report theirs.
    const firstValues = new Map<ServiceId, Array<FirstValue>>()
    // Only getters that restarted have values to sort out (a first home's are taken as each device connects).
    if (started.length > 0) for (const service of toConnect) firstValues.set(service.id, [])
    const reports: Array<{ readonly id: ChannelId; readonly value: Value }> = []
    for (const { id, service, report } of started) {
      if (Option.isNone(report)) continue
      const withConnection = firstValues.get(service)
      if (withConnection === undefined) reports.push({ id, value: report.value })
      else withConnection.push({ channel: id, value: report.value })
    }
    const rejected = new Set<ServiceId>()
    // A large home connects as one change, with a value for each of its many getters.
    // Each described as it is connected: the descriptions of a large home are never all held at once.
    const refusals = yield* host.upsertServices(
      connectionsOf(toConnect, firstHome ? initialValues : (service) => firstValues.get(service.id) ?? [])
    )
    // A map of the devices connecting only when one was refused: a large home's start refuses none.
    const connecting = refusals.length === 0 ? undefined : new Map(toConnect.map((service) => [service.id, service]))
    for (const { id, reason } of refusals) {
      rejected.add(id)
      yield* Effect.logError(`simulated device ${id} not connected: ${reason}`)
      yield* host.removeService(id)
      const service = connecting?.get(id)
      if (service !== undefined) yield* forget(service)
    }
    home = { adapter: next.adapter, services: rejected.size === 0 ? next.services : next.services.filter((s) => !rejected.has(s.id)) }
    yield* Effect.forEach(reports, ({ id, value }) => takeValue(id, value), { discard: true })
    if (firstHome) {
      for (const service of home.services) {
        for (const spec of service.getters) if (spec.cycle !== undefined) yield* startCycle(spec, spec.cycle)
      }
    } else {
      for (const { service, spec } of started) if (!rejected.has(service) && spec.cycle !== undefined) yield* startCycle(spec, spec.cycle)
    }
    return diff
  }, Semaphore.withPermit(applying))

  return {
    adapter,
    home: Effect.sync(() => home),
    apply,
    getterValue: (id) => Effect.sync(() => channels().getters.get(id)?.value ?? Option.none()),
    lastSent: (id) => Effect.sync(() => channels().setters.get(id)?.last ?? Option.none()),
    lastWriter: (id) => Effect.sync(() => channels().setters.get(id)?.writer ?? Option.none())
  } satisfies SimulatedDevices
})
