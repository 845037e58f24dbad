import { join } from "node:path"
import { Effect, Schedule } from "effect"
import type { MqttClient } from "mqtt"
import { BenchFailed, type SelfMeasuredCase } from "../Harness.ts"
import { exchangeOk } from "../http/Exchange.ts"
import { formatDuration, type Row } from "../Row.ts"
import { adminToken } from "../support/AdminToken.ts"
import { serverCpu, serverProcess } from "../support/ChildProcess.ts"
import { mosquitto, mqttClient } from "../support/Mosquitto.ts"
import { tempDir } from "../support/TempDir.ts"
import { gatewayBin } from "./loopback.ts"

/**
 * The claim of issue 33: MQTT discovery's work per message follows what the message changes, not the
 * size of the home. Both cases run `gateway serve --mqtt-discovery` on a mosquitto of their own. The
 * baseline is the broker's own delivery: a bare MQTT client of the bench receiving the same messages.
 * Targets on a 2-core machine: 10,000 configs listed in under 10 s; a state after 3,000 availability
 * messages read in under 1 s.
 */

const configs = 10_000
const availabilityDevices = 1_000
const availabilityMessages = 3_000
/** How often the gateway is asked whether it is done: often for one state, seldom for the list (asking costs the gateway too). */
const statePollMs = 5
const listPollMs = 100

const prefix = "homeassistant"
/** Plug `i`: a switch on a device of its own, available on `bench/<i>/status` if `available`. */
const plugConfig = (i: number, available: boolean) =>
  JSON.stringify({
    name: "Plug",
    cmd_t: `bench/${i}/set`,
    stat_t: `bench/${i}/state`,
    ...(available ? { avty_t: `bench/${i}/status` } : {}),
    uniq_id: `bench-plug-${i}`,
    dev: { ids: `bench-${i}` }
  })
const configTopic = (i: number) => `${prefix}/switch/bench/plug_${i}/config`

/** Publishes `messages` in order, a batch of 500 at a time (the client's socket then drains). */
const publishAll = (client: MqttClient, messages: ReadonlyArray<readonly [string, string]>, retain: boolean) =>
  Effect.promise(async () => {
    for (let from = 0; from < messages.length; from += 500) {
      await Promise.all(messages.slice(from, from + 500).map(([topic, payload]) => client.publishAsync(topic, payload, { qos: 0, retain })))
    }
  })

/** Resolves once `client` has received `count` messages on topics that `counts`. */
const receive = (client: MqttClient, counts: (topic: string) => boolean, count: number) =>
  new Promise<void>((resolve) => {
    let received = 0
    const onMessage = (topic: string) => {
      if (counts(topic) && ++received === count) (client.off("message", onMessage), resolve())
    }
    client.on("message", onMessage)
  })

/** `gateway serve --mqtt-discovery` on the broker at `url`, with the admin's token. */
const gatewayOn = (url: string) =>
  Effect.gen(function*() {
    const dir = yield* tempDir
    const args = [gatewayBin, "serve", "--data", join(dir, "data"), "--port", "0", "--no-clock", "--mqtt", url, "--mqtt-discovery"]
    const server = yield* serverProcess("gateway serve", args, { cpu: serverCpu, timeoutMs: 60_000 })
    const token = yield* adminToken(server)
    const get = (path: string, body?: unknown) =>
      exchangeOk(`${server.url}${path}`, "GET", { authorization: `Bearer ${token}` }, body === undefined ? undefined : JSON.stringify(body))
    return { server, get }
  })

/** Asks until `done` holds of the answer, every `pollMs`. */
const until = <A, E>(ask: Effect.Effect<A, E>, done: (a: A) => boolean, pollMs: number) =>
  ask.pipe(
    Effect.flatMap((a) => (done(a) ? Effect.void : Effect.fail("not yet" as const))),
    Effect.retry({ while: (e) => e === "not yet", schedule: Schedule.spaced(pollMs) }),
    Effect.timeout(120_000)
  )

const listedCount = (text: string) => (JSON.parse(text) as ReadonlyArray<unknown>).length
const comparedOf = (text: string) => Number(/^gateway_mqtt_services_compared_total\{adapter="mqtt-discovery@gateway\.local"\} (\d+)/m.exec(text)?.[1] ?? 0)

const retainedConfigs = (name: string): Effect.Effect<ReadonlyArray<Row>, BenchFailed> =>
  Effect.scoped(Effect.gen(function*() {
    const url = yield* mosquitto
    const player = yield* mqttClient(url)
    yield* publishAll(player, Array.from({ length: configs }, (_, i) => [configTopic(i), plugConfig(i, false)] as const), true)
    // The broker's delivery: a bare client subscribing takes the retained configs.
    const bare = yield* mqttClient(url)
    const bareStart = performance.now()
    const bareDone = receive(bare, () => true, configs)
    yield* Effect.promise(() => bare.subscribeAsync(`${prefix}/#`))
    yield* Effect.promise(() => bareDone)
    const bareMs = performance.now() - bareStart
    // The gateway, from its `listening on` (it connects then) to every device listed.
    const { server, get } = yield* gatewayOn(url)
    // The metrics are cheap to ask for often; the list of 10,000 services is asked once they are all compared.
    yield* until(get("/metrics"), (text) => comparedOf(text) >= configs, listPollMs)
    yield* until(get("/api/v1/services"), (text) => listedCount(text) >= configs, listPollMs)
    const gatewayMs = performance.now() - server.startedAt - server.startupMs
    return [{
      name,
      baseline: "a bare MQTT client receiving them",
      subject: "gateway serve --mqtt-discovery, listing them",
      baselineFigures: formatDuration(bareMs),
      subjectFigures: formatDuration(gatewayMs),
      ratio: bareMs / gatewayMs
    }]
  })).pipe(Effect.mapError((cause) => new BenchFailed({ benchCase: name, contender: "discovery", cause })))

const stateAfterAvailability = (name: string): Effect.Effect<ReadonlyArray<Row>, BenchFailed> =>
  Effect.scoped(Effect.gen(function*() {
    const url = yield* mosquitto
    const player = yield* mqttClient(url)
    const devices = Array.from({ length: availabilityDevices }, (_, i) => i)
    yield* publishAll(player, devices.map((i) => [`bench/${i}/status`, "online"] as const), true)
    yield* publishAll(player, [...devices.map((i) => [configTopic(i), plugConfig(i, true)] as const), [configTopic(-1), plugConfig(-1, false)]], true)
    const { get } = yield* gatewayOn(url)
    yield* until(get("/api/v1/services"), (text) => listedCount(text) >= availabilityDevices + 1, listPollMs)
    const probe = "getter:bench--1.switch.plug_-1@mqtt-discovery"
    const bare = yield* mqttClient(url)
    yield* Effect.promise(() => bare.subscribeAsync(["bench/+/status", "bench/-1/state"]))
    /** 3,000 availability messages (the devices offline, online, offline), then the probe's state `state`. */
    const flood = (state: string) =>
      publishAll(player, [
        ...Array.from({ length: availabilityMessages }, (_, k) =>
          [`bench/${k % availabilityDevices}/status`, Math.floor(k / availabilityDevices) % 2 === 0 ? "offline" : "online"] as const),
        ["bench/-1/state", state]
      ], false)
    const bareState = receive(bare, (topic) => topic === "bench/-1/state", 1)
    const start = performance.now()
    yield* flood("ON")
    yield* Effect.promise(() => bareState)
    const bareMs = performance.now() - start
    yield* until(get("/api/v1/channels/get", { id: probe }), (text) => text.includes(`"On"`), statePollMs)
    const gatewayMs = performance.now() - start
    return [{
      name,
      baseline: "a bare MQTT client receiving them",
      subject: "gateway serve --mqtt-discovery, answering the state",
      baselineFigures: formatDuration(bareMs),
      subjectFigures: formatDuration(gatewayMs),
      ratio: bareMs / gatewayMs
    }]
  })).pipe(Effect.mapError((cause) => new BenchFailed({ benchCase: name, contender: "discovery", cause })))

/** A case named `name`, measured by `measure`. */
const named = (name: string, measure: (name: string) => Effect.Effect<ReadonlyArray<Row>, BenchFailed>): SelfMeasuredCase => ({
  name,
  measure: () => measure(name)
})

export const cases: ReadonlyArray<SelfMeasuredCase> = [
  named(`MQTT discovery: ${configs.toLocaleString("en-US")} retained configs until all are listed`, retainedConfigs),
  named(`MQTT discovery: a state after ${availabilityMessages.toLocaleString("en-US")} availability messages`, stateAfterAvailability)
]
