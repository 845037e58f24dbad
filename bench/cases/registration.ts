import { join } from "node:path"
import { Data, Effect, Option, Schema } from "effect"
import { BenchFailed, type HarnessOptions, type SelfMeasuredCase } from "../Harness.ts"
import { formatDuration, formatMiB, type Row } from "../Row.ts"
import { benchGateway } from "../support/BenchGateway.ts"
import { canPin, loadCpu, pinThisProcess, runToEnd, serverCpu } from "../support/ChildProcess.ts"

/**
 * Watch registrations on a large home (issue 40): a home of 20,000 OnOff getters (100 services of 200),
 * the gateway in this process (on CPU 0), the clients in a process of their own (on CPU 1:
 * bench/watch/registrationClients.ts), so that the CPU this process uses is the gateway's.
 *
 * - `{} on 20,000 getters`: the CPU of one registration that watches every getter (`{"select": {}}`, with
 *   and without `"initial_values": true`), each on a socket of its own, read to its last event; against
 *   the same number of registrations of one getter on the same gateway (a socket's own cost).
 * - `8 clients in a loop`: eight clients registering `{}` with current values, one after another, for
 *   20 s; `/health`'s p99 meanwhile (asked by a process of its own) against its p99 on the idle gateway, and the heap before and after
 *   (after a GC, when the bench runs with `node --expose-gc`: a leak shows as a heap that does not come back).
 */

const services = 100
const gettersPerService = 200
const getterCount = services * gettersPerService
const home = {
  adapter: "simulator@bench",
  services: Array.from({ length: services }, (_, s) => ({
    id: `service:s${s}@bench`,
    getters: Array.from({ length: gettersPerService }, (_, g) => ({ id: `getter:g${g}@s${s}`, kind: "OnOff", value: { OnOff: "Off" } }))
  }))
}
const oneGetter = "getter:g0@s0"

class RegistrationFailed extends Data.TaggedError("RegistrationFailed")<{ readonly reason: string }> {
  override get message(): string {
    return this.reason
  }
}

const clientsScript = join(import.meta.dirname, "..", "watch", "registrationClients.js")

const Report = Schema.fromJsonString(Schema.Struct({ registrations: Schema.Number, healthP99Ms: Schema.NullOr(Schema.Number) }))

interface Load {
  readonly frame: object
  /** Events each registration reads to: additions, and current values if it asks for them. */
  readonly events: number
  readonly clients?: number
  readonly registrations?: number
  readonly seconds?: number
  readonly health?: boolean
}

/** Runs the clients to their end; answers their report and the CPU this process (the gateway) used meanwhile, in ms. */
const runClients = (url: string, token: string, load: Load) =>
  Effect.gen(function*() {
    const args = [
      clientsScript,
      "--url", url,
      "--token", token,
      "--frame", JSON.stringify(load.frame),
      "--events", String(load.events),
      "--clients", String(load.clients ?? 1),
      ...(load.registrations === undefined ? [] : ["--registrations", String(load.registrations)]),
      ...(load.seconds === undefined ? [] : ["--seconds", String(load.seconds)]),
      ...(load.health === true ? ["--health"] : [])
    ]
    const before = process.cpuUsage()
    const output = yield* runToEnd("registration clients", args, { cpu: loadCpu, timeoutMs: 300_000 })
    const used = process.cpuUsage(before)
    const report = yield* Schema.decodeUnknownEffect(Report)(output.trim())
    return { report, cpuMs: (used.user + used.system) / 1_000 }
  })

const notPinned = "taskset is not available here: the gateway and its clients were not pinned to a CPU of their own"
const pinNote = () => (canPin() ? {} : { note: notPinned })

/** CPU per registration of every getter, against that of one getter, `count` of each. */
const registrationCpu = (name: string, initialValues: boolean, count: number) =>
  Effect.scoped(Effect.gen(function*() {
    yield* pinThisProcess(serverCpu)
    const gateway = yield* benchGateway(Option.some(home))
    const extra = initialValues ? { initial_values: true } : {}
    const perRegistration = (events: number) => events * (initialValues ? 2 : 1)
    const every = { frame: { select: {}, ...extra }, events: perRegistration(getterCount), registrations: count }
    const one = { frame: { select: { id: oneGetter }, ...extra }, events: perRegistration(1), registrations: count }
    // Warm-up: the first registrations run before V8 has optimized the path.
    yield* runClients(gateway.url, gateway.token, { ...every, registrations: 2 })
    const baseline = yield* runClients(gateway.url, gateway.token, one)
    const subject = yield* runClients(gateway.url, gateway.token, every)
    const baselineMs = baseline.cpuMs / count
    const subjectMs = subject.cpuMs / count
    const row: Row = {
      name,
      baseline: "a registration of one getter",
      subject: `{} on ${getterCount.toLocaleString("en-US")} getters`,
      baselineFigures: `${formatDuration(baselineMs)} CPU each`,
      subjectFigures: `${formatDuration(subjectMs)} CPU each (${count} registrations)`,
      ratio: baselineMs / subjectMs,
      ...pinNote()
    }
    return [row]
  }))

/** The heap after a GC (when the bench runs with `--expose-gc`), in bytes. */
const heapAfterGc = (): { readonly bytes: number; readonly collected: boolean } => {
  const gc: unknown = Reflect.get(globalThis, "gc")
  if (typeof gc === "function") gc()
  return { bytes: process.memoryUsage().heapUsed, collected: typeof gc === "function" }
}

/** `/health`'s p99 idle, then beside 8 clients registering in a loop; the heap before and after. */
const clientsInALoop = (name: string, seconds: number) =>
  Effect.scoped(Effect.gen(function*() {
    yield* pinThisProcess(serverCpu)
    const gateway = yield* benchGateway(Option.some(home))
    const frame = { select: {}, initial_values: true }
    // Warm-up, then the idle p99: the poller, in a process of its own, beside a client registering one getter 200 times.
    yield* runClients(gateway.url, gateway.token, { frame, events: 2 * getterCount, registrations: 2 })
    const heapBefore = heapAfterGc()
    const poller = (pollSeconds: number) => ({ frame, events: 0, clients: 0, seconds: pollSeconds, health: true })
    const [idle] = yield* Effect.all([
      runClients(gateway.url, gateway.token, poller(5)),
      runClients(gateway.url, gateway.token, { frame: { select: { id: oneGetter } }, events: 1, registrations: 200 })
    ], { concurrency: 2 })
    const [polled, loaded] = yield* Effect.all([
      runClients(gateway.url, gateway.token, poller(seconds)),
      runClients(gateway.url, gateway.token, { frame, events: 2 * getterCount, clients: 8, seconds })
    ], { concurrency: 2 })
    const heapAfter = heapAfterGc()
    const idleP99 = idle.report.healthP99Ms
    const loadedP99 = polled.report.healthP99Ms
    if (loaded.report.registrations === 0 || idleP99 === null || loadedP99 === null) {
      return yield* new RegistrationFailed({ reason: "no registration finished, or no /health answered" })
    }
    const heap = `heap ${formatMiB(heapBefore.bytes)} → ${formatMiB(heapAfter.bytes)}${heapAfter.collected ? " after GC" : " (no --expose-gc: before GC)"}`
    const row: Row = {
      name,
      baseline: "/health p99, the gateway idle",
      subject: "/health p99 beside 8 clients registering {} with current values",
      baselineFigures: formatDuration(idleP99),
      subjectFigures: `${formatDuration(loadedP99)}, ${loaded.report.registrations} registrations in ${seconds} s, ${heap}`,
      ratio: idleP99 / loadedP99,
      ...pinNote()
    }
    return [row]
  }))

const failed = (name: string) => Effect.mapError((cause: unknown) => new BenchFailed({ benchCase: name, contender: "registration", cause }))

/** Registrations per contender in the CPU cases (`--rounds`): enough to average out one slow one. */
const registrationsOf = (options: HarnessOptions) => options.rounds ?? 10

const named = (name: string, measure: (name: string, options: HarnessOptions) => Effect.Effect<ReadonlyArray<Row>, unknown>): SelfMeasuredCase => ({
  name,
  measure: (options) => measure(name, options).pipe(failed(name))
})

export const cases: ReadonlyArray<SelfMeasuredCase> = [
  named(`watch registration: {} on ${getterCount.toLocaleString("en-US")} getters`, (name, options) => registrationCpu(name, false, registrationsOf(options))),
  named(`watch registration: {} on ${getterCount.toLocaleString("en-US")} getters, with current values`, (name, options) => registrationCpu(name, true, registrationsOf(options))),
  named("watch registration: 8 clients in a loop for 20 s", (name) => clientsInALoop(name, 20))
]
