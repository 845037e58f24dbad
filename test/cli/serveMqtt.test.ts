import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { isDeepStrictEqual } from "node:util"
import { connectAsync } from "mqtt"
import { runShellExample, shellExamples } from "../docs/shellExamples.ts"
import { eventuallyAsync } from "../support/eventually.ts"
import { freshDataDir } from "../support/gatewayTestLayer.ts"
import { send } from "../support/httpRequest.ts"
import { type Mosquitto, startMosquitto } from "../support/mosquitto.ts"
import { runGatewayInProcess } from "../support/gatewayCli.ts"
import { type RunningGateway, runGateway, spawnGateway } from "../support/spawnGateway.ts"
import { type FakeBridge, ieee, startFakeBridge } from "../support/zigbee2mqttBridge.ts"
import { onFreePort } from "../support/freePort.ts"


let mosquitto: Mosquitto | undefined
let bridge: FakeBridge | undefined
let gateway: RunningGateway | undefined
let brokerPort = 0
/** The login the first broker asks for: the gateway gives it with --mqtt-username and --mqtt-password. */
const login = { username: "alice", password: "secret" }

beforeAll(async () => {
  mosquitto = await startMosquitto({ users: { [login.username]: login.password } })
  bridge = await startFakeBridge(mosquitto.url, { baseTopic: "home/zigbee", ...login })
  // The broker's port is given, to log in to it; the gateway's HTTP port is its own pick (0).
  gateway = await onFreePort((port) => (brokerPort = port, spawnGateway([
    "serve", "--port", "0", "--data", freshDataDir(),
    "--mqtt", mosquitto?.url ?? "", "--mqtt-username", login.username, "--mqtt-password", login.password,
    "--mqtt-base-topic", "home/zigbee", "--mqtt-discovery=home/ha", `--mqtt-broker=${port}`
  ])))
})

afterAll(async () => {
  await gateway?.stop("SIGTERM")
  await bridge?.close()
  await mosquitto?.stop()
})

/**
 * GETs `url` with the first run's admin token until the answer holds the bridge's devices (a few seconds at
 * most), and answers it. The bridge's own service comes first, from its info: the lock's id, from its list
 * of devices, is what says the devices are in.
 */
const poll = async (url: string, token: string): Promise<unknown> => {
  const get = async (): Promise<unknown> => (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json()
  for (let attempt = 0; attempt < 100; attempt++) {
    const json = await get()
    if (JSON.stringify(json).includes(`${ieee.lock}@zigbee2mqtt`)) return json
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return get()
}

const running = () => {
  if (gateway?.token === undefined) throw new Error("the gateway did not start, or printed no admin token")
  return { ...gateway, token: gateway.token }
}

const getJson = (path: string): Promise<unknown> => poll(`${running().baseUrl}${path}`, running().token)

/** Connects to the embedded broker: "connected", or the CONNACK code it refused with. */
const brokerLogin = (username: string, password: string) =>
  connectAsync(`mqtt://127.0.0.1:${brokerPort}`, { username, password, reconnectPeriod: 0 }).then(
    async (client) => (await client.endAsync(), "connected"),
    (error: unknown) => (typeof error === "object" && error !== null && "code" in error ? error.code : String(error))
  )

describe("gateway serve --mqtt URL --mqtt-username NAME --mqtt-password PASSWORD --mqtt-base-topic TOPIC --mqtt-discovery=PREFIX --mqtt-broker=PORT", () => {
  it("shows the bridge's devices beside the simulated home and the clock, in vocabulary B", async () => {
    const services = (await getJson("/api/v1/services")) as ReadonlyArray<{ id: string; getters: ReadonlyArray<{ id: string; kind: unknown }> }>
    const ids = services.map((s) => s.id)
    expect(ids).toContain("service:clock@clock")
    expect(ids).toContain("service:front-door-lock@sim")
    const lock = services.find((s) => s.id === "service:0x000d6f0000000004@zigbee2mqtt")
    expect(lock?.getters).toMatchObject([
      { id: "getter:0x000d6f0000000004.lock_state@zigbee2mqtt", kind: { kind: "lock_state", type: "String" } },
      { id: "getter:0x000d6f0000000004.state@zigbee2mqtt", kind: "DoorLocked" }
    ])
  })

  it("shows them in vocabulary A, with the same ids", async () => {
    const nodes = (await getJson("/api/v1/nodes")) as ReadonlyArray<{ id: string; inputs: ReadonlyArray<{ id: string; mechanism: unknown }> }>
    const door = nodes.find((n) => n.id === "service:0x00158d0000000002@zigbee2mqtt")
    expect(door?.inputs.find((i) => i.id === "getter:0x00158d0000000002.contact@zigbee2mqtt")?.mechanism).toMatchObject({
      Get: { kind: { OpenClosed: [] } }
    })
  })

  it("shows a device announced by MQTT discovery under the prefix given, on the same broker", async () => {
    // An ESPHome switch's discovery config, abbreviated, with no availability.
    const player = await connectAsync(mosquitto?.url ?? "", login)
    try {
      const config = { name: "Relay", stat_t: "porch/switch/relay/state", cmd_t: "porch/switch/relay/command", uniq_id: "ESPswitchrelay", dev: { ids: "c0ffee000001" } }
      await player.publishAsync("home/ha/switch/porch/relay/config", JSON.stringify(config), { retain: true, qos: 1 })
      await player.publishAsync("porch/switch/relay/state", "ON", { retain: true, qos: 1 })
      const relay = "getter:c0ffee000001.switch.relay@mqtt-discovery"
      const read = async () => {
        const reply = await send(`${running().baseUrl}/api/v1/channels/get`, {
          method: "GET",
          headers: { authorization: `Bearer ${running().token}` },
          body: JSON.stringify({ id: relay })
        })
        return (JSON.parse(reply.body) as Record<string, unknown>)[relay]
      }
      expect(await eventuallyAsync(read, (value) => value !== undefined && value !== null)).toEqual({ OnOff: "On" })
    } finally {
      await player.endAsync()
    }
  })

  it("runs the embedded broker on the port given, for gateway users with their password or an unscoped token", async () => {
    const password = /^admin password: (\S+)$/m.exec(running().stdout())?.[1] ?? ""
    expect(await brokerLogin("admin", password)).toBe("connected")
    expect(await brokerLogin("admin", running().token)).toBe("connected")
    expect(await brokerLogin("admin", "not the password")).toBe(4)
    expect(await brokerLogin("nobody", password)).toBe(4)
  })
})

describe("the curl examples of docs/adapters/mqtt.md, which need a bridge", () => {
  const markdown = readFileSync(join(import.meta.dirname, "..", "..", "docs", "adapters", "mqtt.md"), "utf8")
  const examples = shellExamples(markdown).filter((example) => example.gateway.bridge)

  it("run as pasted, with $TOKEN set; the lock example's write reaches the bridge as one /set message", async () => {
    expect(examples.length).toBeGreaterThan(0)
    await getJson("/api/v1/services")
    for (const example of examples) {
      const run = await runShellExample(example, { baseUrl: running().baseUrl, token: running().token, cwd: freshDataDir() })
      expect({ line: example.line, code: run.code, stderr: run.stderr }).toEqual({ line: example.line, code: 0, stderr: "" })
    }
    // The write is answered once the gateway published it; the bridge hears it a moment later, through mosquitto.
    const unlock = { topic: "home/zigbee/back_door_lock/set", payload: { state: "UNLOCK" } }
    const received = await eventuallyAsync(async () => bridge?.received ?? [], (messages) => messages.some((m) => isDeepStrictEqual(m, unlock)))
    expect(received).toContainEqual(unlock)
  })
})

describe("gateway serve --mqtt-broker=PORT on a port already taken", () => {
  // In this process: a start refused on a port taken runs as a process in firstRun.test.ts (--port).
  it("says so in one line and exits with code 1", async () => {
    if (mosquitto === undefined) throw new Error("mosquitto did not start")
    const exited = await runGatewayInProcess(["serve", "--port", "0", "--data", freshDataDir(), "--no-clock", `--mqtt-broker=${mosquitto.port}`])
    expect(exited.code).toBe(1)
    expect(exited.stderr).toContain(`cannot start the MQTT broker on 127.0.0.1:${mosquitto.port}`)
  })
})

describe("gateway serve --mqtt mqtts://… --mqtt-ca FILE --mqtt-username NAME --mqtt-password-file FILE", () => {
  /** The one line that says why the gateway did not start, and nothing of a stack or a banner. */
  const expectOneLine = (stderr: string, line: string) => {
    expect(stderr.split("\n").filter((l) => l.startsWith("gateway: "))).toEqual([line])
    expect(stderr).not.toMatch(/\bat .*\.js:\d+/)
    expect(stderr).not.toMatch(/^ERROR$/m)
  }

  it("follows a bridge on a broker that asks for TLS and a login, with the file's first line, and the password is not on the command line", async () => {
    const password = "secret in a file"
    const secure = await startMosquitto({ tls: true, users: { alice: password } })
    const tlsBridge = await startFakeBridge(secure.url, { username: "alice", password, ca: readFileSync(secure.caFile ?? "", "utf8") })
    const file = join(freshDataDir(), "mqtt-password")
    writeFileSync(file, `${password}\nnot the password\n`, { mode: 0o600 })
    const tlsGateway = await spawnGateway([
      "serve", "--port", "0", "--data", freshDataDir(), "--no-clock",
      "--mqtt", secure.url, "--mqtt-ca", secure.caFile ?? "", "--mqtt-username", "alice", "--mqtt-password-file", file
    ])
    try {
      const services = await poll(`${tlsGateway.baseUrl}/api/v1/services`, tlsGateway.token ?? "")
      expect(JSON.stringify(services)).toContain("service:0x000d6f0000000004@zigbee2mqtt")
      // What `ps` shows of the process.
      const commandLine = readFileSync(`/proc/${tlsGateway.pid}/cmdline`, "utf8").split("\0")
      expect(commandLine).toContain(file)
      expect(commandLine.join(" ")).not.toContain(password)
    } finally {
      await tlsGateway.stop("SIGTERM")
      await tlsBridge.close()
      await secure.stop()
    }
  })

  it("says in one line and exits with code 1 when the file cannot be read or its first line is empty", async () => {
    const dir = freshDataDir()
    const missing = join(dir, "missing")
    const empty = join(dir, "empty")
    writeFileSync(empty, "\nsecond line\n")
    // The first as a process (its exit code, nothing else on stderr), the others in this process.
    for (const [file, why, run] of [[missing, "no such file", runGateway], [empty, "its first line is empty", runGatewayInProcess]] as const) {
      const exited = await run(["serve", "--port", "0", "--data", freshDataDir(), "--no-clock", "--mqtt", "mqtt://127.0.0.1:1", "--mqtt-password-file", file])
      expect({ file, code: exited.code }).toEqual({ file, code: 1 })
      expectOneLine(exited.stderr, `gateway: cannot use the MQTT password file ${file}: ${why}`)
    }
    const both = await runGatewayInProcess(["serve", "--port", "0", "--data", freshDataDir(), "--mqtt", "mqtt://127.0.0.1:1", "--mqtt-password", "x", "--mqtt-password-file", empty])
    expect(both.code).toBe(2)
    expectOneLine(both.stderr, "gateway: --mqtt-password and --mqtt-password-file: give one of them, not both")
  })
})
