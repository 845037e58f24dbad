import { mkdtempSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { connectAsync, type MqttClient } from "mqtt"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { eventuallyAsync, pause } from "../support/eventually.ts"
import { send } from "../support/httpRequest.ts"
import { type Mosquitto, startMosquitto } from "../support/mosquitto.ts"
import { type Postgres, startPostgres } from "../support/postgres.ts"
import { type RunningGateway, runGateway, spawnGateway } from "../support/spawnGateway.ts"
import { type FakeBridge, ieee, startFakeBridge } from "../support/zigbee2mqttBridge.ts"

/**
 * Replicas of one home (`--database-url`) following the devices on one broker (docs/replicas.md,
 * "Devices over one broker"): each learns the home from the broker's retained messages, asks with
 * `/get` only what they do not hold, and what every replica would repeat at its start is sent once.
 */

const { light, door, thermostat, lock, button, bulb } = ieee
const getter = (ieee: string, property: string) => `getter:${ieee}.${property}@zigbee2mqtt`
/**
 * The lock is the one device not configured with `retain: true` (its state answers a /get: access 7,
 * where a door contact's, access 1, does not); the thermostat has published nothing.
 */
const retainedStates = ["living_room_light", "front_door", "study_switch", "hall_bulb", "hall_thermostat"]
/** A value of each device the bridge published before any replica started. */
const published = [
  getter(light, "state"), getter(light, "brightness"), getter(door, "contact"), getter(door, "battery"), getter(lock, "state"),
  getter(lock, "lock_state"), getter(button, "battery"), getter(bulb, "state"), getter(bulb, "brightness")
]
const plug = "service:replica-plug@mqtt-discovery"

let postgres: Postgres | undefined
let mosquitto: Mosquitto | undefined
let bridge: FakeBridge | undefined
/** A device announced by MQTT discovery: it answers the birth message with its config, retained. */
let device: MqttClient | undefined
/** Each birth message heard on the broker. */
const births: Array<string> = []
const replicas: Array<RunningGateway> = []
let database = ""

const folder = () => mkdtempSync(join(process.env["GATEWAY_TEST_ROOT"] ?? "/tmp", "gateway-replica-"))
/** A home file of no devices: a replica simulates nothing. */
const emptyHome = () => {
  const file = join(folder(), "home.json")
  writeFileSync(file, JSON.stringify({ adapter: "simulator@replica.test", services: [] }))
  return file
}
const startReplica = async (home: ReadonlyArray<string> = ["--home", emptyHome()]) => {
  if (postgres === undefined || mosquitto === undefined) throw new Error("the suite did not start")
  const replica = await spawnGateway([
    "serve", "--database-url", postgres.url(database), "--port", "0", "--data", folder(), "--no-dashboard", "--no-clock", ...home,
    "--mqtt", mosquitto.url, "--mqtt-discovery"
  ], 20_000, { PGPASSWORD: postgres.password })
  replicas.push(replica)
  return replica
}
/** The first replica's admin token, good on every replica: they share the database. */
const token = () => {
  const found = replicas.flatMap((replica) => replica.token ?? [])[0]
  if (found === undefined) throw new Error("no replica printed the admin token")
  return found
}
const call = async (replica: RunningGateway, method: string, path: string, body?: unknown) => {
  const reply = await send(`${replica.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token()}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    timeoutMs: 10_000
  })
  return JSON.parse(reply.body) as unknown
}
/** Vocabulary B's values of `ids` on `replica`, by id; a value it cannot give is `null` or an error. */
const read = async (replica: RunningGateway, ids: ReadonlyArray<string>) =>
  (await call(replica, "GET", "/api/v1/channels/get", ids.map((id) => ({ id })))) as Readonly<Record<string, unknown>>
const held = (values: Readonly<Record<string, unknown>>, ids: ReadonlyArray<string>) =>
  ids.every((id) => typeof values[id] === "object" && values[id] !== null && !("error" in values[id]))
const serviceIds = async (replica: RunningGateway) => ((await call(replica, "GET", "/api/v1/services")) as ReadonlyArray<{ readonly id: string }>).map((s) => s.id)
const requests = (verb: "get" | "set") => (bridge?.received ?? []).filter((r) => r.topic.endsWith(`/${verb}`))

beforeAll(async () => {
  postgres = await startPostgres()
  database = await postgres.createDatabase()
  mosquitto = await startMosquitto()
  // A device takes a second to answer a /get: long enough for a second replica to ask while the first waits.
  bridge = await startFakeBridge(mosquitto.url, { retainedStates, getAnswerMs: 1_000 })
  device = await connectAsync(mosquitto.url, { reconnectPeriod: 100 })
  device.on("message", (_topic, payload) => {
    births.push(payload.toString("utf8"))
    void device?.publishAsync("homeassistant/switch/replica-plug/config", JSON.stringify({
      name: "plug", cmd_t: "replica-plug/set", stat_t: "replica-plug/state", uniq_id: "replica-plug", dev: { ids: "replica-plug" }
    }), { retain: true, qos: 1 })
  })
  await device.subscribeAsync("homeassistant/status", { qos: 1 })
}, 60_000)

afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.stop()))
  await device?.endAsync()
  await bridge?.close()
  await mosquitto?.stop()
  await postgres?.stop()
})

describe("replicas on one broker", () => {
  it("a replica started after the bridge published serves every device and its current value within 3 s, asking with /get only the device whose state is not retained", async () => {
    const first = await startReplica()
    const listening = Date.now()
    const services = await eventuallyAsync(() => serviceIds(first), (ids) => [light, door, thermostat, lock, button, bulb].every((ieee) => ids.includes(`service:${ieee}@zigbee2mqtt`)))
    const values = await eventuallyAsync(() => read(first, published), (v) => held(v, published))
    const took = Date.now() - listening
    expect(services).toEqual(expect.arrayContaining([light, door, thermostat, lock, button, bulb].map((ieee) => `service:${ieee}@zigbee2mqtt`)))
    expect(values[getter(light, "state")]).toEqual({ OnOff: "Off" })
    expect(values[getter(door, "contact")]).toEqual({ OpenClosed: "Closed" })
    expect(values[getter(lock, "state")]).toEqual({ DoorLocked: "Locked" })
    expect(took).toBeLessThan(3_000)
    expect(requests("get").map((r) => r.topic)).toEqual(["zigbee2mqtt/back_door_lock/get"])
    expect(first.stderr()).not.toContain("each replica simulates its own devices")
  })

  it("sends the MQTT discovery birth message once for two replicas: the second learns the devices from the configs they retained in answer to the first's", async () => {
    const [first] = replicas
    if (first === undefined) throw new Error("no first replica")
    await eventuallyAsync(() => serviceIds(first), (ids) => ids.includes(plug))
    expect(births).toEqual(["online"])
    const second = await startReplica()
    await eventuallyAsync(() => serviceIds(second), (ids) => ids.includes(plug))
    expect(await serviceIds(second)).toContain(plug)
    // Past the second's wait for retained configs (1 s), with a margin for a busy machine.
    await pause(1_500)
    expect(births).toEqual(["online"])
  })

  it("asks a device once for two replicas: one that needs a value another replica's /get asked waits for its answer", async () => {
    const [first, second] = replicas
    if (first === undefined || second === undefined) throw new Error("two replicas did not start")
    const temperature = [getter(thermostat, "local_temperature")]
    const before = requests("get").length
    const fromFirst = read(first, temperature)
    await eventuallyAsync(async () => requests("get").length, (n) => n > before)
    const asked = Date.now()
    await pause(100)
    const fromSecond = read(second, temperature)
    // Asked well before the device answers (1 s after the /get): the second replica cannot hold the answer yet.
    expect(Date.now() - asked).toBeLessThan(800)
    expect(await Promise.all([fromFirst, fromSecond])).toEqual([
      { [getter(thermostat, "local_temperature")]: { Temperature: { C: 19.5 } } },
      { [getter(thermostat, "local_temperature")]: { Temperature: { C: 19.5 } } }
    ])
    expect(requests("get").slice(before).map((r) => r.topic)).toEqual(["zigbee2mqtt/hall_thermostat/get"])
  })

  it("publishes a write through one replica once, and the new state reaches both through the broker", async () => {
    const [first, second] = replicas
    if (first === undefined || second === undefined) throw new Error("two replicas did not start")
    const state = [getter(light, "state")]
    const answer = await call(second, "PUT", "/api/v1/channels/set", { select: { id: `setter:${light}.state@zigbee2mqtt` }, value: { OnOff: "On" } })
    expect(answer).toEqual({ [`setter:${light}.state@zigbee2mqtt`]: null })
    for (const replica of [first, second]) {
      expect(await eventuallyAsync(() => read(replica, state), (v) => JSON.stringify(v).includes("\"On\""))).toEqual({ [state[0] ?? ""]: { OnOff: "On" } })
    }
    await pause(300)
    expect(requests("set")).toEqual([{ topic: "zigbee2mqtt/living_room_light/set", payload: { state: "ON" } }])
  })
})

describe.concurrent("a replica's own parts", () => {
  it("refuses --mqtt-broker with --database-url (exit 2), in one line saying to run one broker for all replicas", async () => {
    const exited = await runGateway(["serve", "--database-url", "postgres://gateway@127.0.0.1:1/gateway", "--mqtt-broker=0", "--port", "0", "--data", folder()])
    expect(exited.code).toBe(2)
    expect(exited.stderr.split("\n").filter((line) => line !== "")).toEqual([
      "gateway: --mqtt-broker runs a broker inside this gateway alone, and --database-url makes it one replica of several: " +
        "run one MQTT broker for all replicas (such as mosquitto) and give each replica --mqtt URL"
    ])
  })

  it("starts a simulated home with one warning line that each replica simulates its own devices", async () => {
    const replica = await startReplica([])
    const warned = replica.stderr().split("\n").filter((line) => line.includes("each replica simulates its own devices"))
    expect(warned).toHaveLength(1)
    expect(warned[0]).toMatch(/ WARN /)
    expect(warned[0]).toContain("the built-in demo home")
  })
})
