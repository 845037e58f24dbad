import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Option } from "effect"
import { connectAsync, type MqttClient } from "mqtt"
import { channelSelector, exactly, ServiceId } from "../../../src/domain/index.ts"
import { eventuallyAsync } from "../../support/eventually.ts"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { send } from "../../support/httpRequest.ts"
import { type Mosquitto, startMosquitto } from "../../support/mosquitto.ts"
import { bridgeDevices, type FakeBridge, startFakeBridge } from "../../support/zigbee2mqttBridge.ts"

/**
 * Bridges and devices on the broker that send what they should not (issue 33), against Debian's
 * mosquitto and a whole gateway over HTTP: topics MQTT forbids, command topics aimed at another
 * bridge's requests, friendly names that cannot be topics, text without bounds. What is refused is
 * said once in the log, and the rest keeps working on the same connections.
 */

const prefix = `ha-hostile-${process.pid}`
const baseTopic = `z2m-hostile-${process.pid}`

let mosquitto: Mosquitto | undefined
let player: MqttClient | undefined
let bridge: FakeBridge | undefined
let gateway: GatewayOverHttp | undefined
/** Every message the player heard, in order. */
const heard: Array<{ readonly topic: string; readonly payload: string }> = []

const started = () => {
  if (player === undefined || gateway === undefined || bridge === undefined) throw new Error("the suite did not start")
  return { player, gateway, bridge }
}
const publish = (topic: string, payload: unknown, retain = true) => {
  if (player === undefined) throw new Error("the player did not start")
  return player.publishAsync(topic, typeof payload === "string" ? payload : JSON.stringify(payload), { retain, qos: 1 })
}
const config = (component: string, path: string) => `${prefix}/${component}/${path}/config`
const call = (method: string, path: string, body?: unknown) => started().gateway.call(method, path, body)
const serviceIds = async () => ((await call("GET", "/api/v1/services")).json as ReadonlyArray<{ readonly id: string }>).map((s) => s.id)
const readB = async (id: string) => ((await call("GET", "/api/v1/channels/get", { id })).json as Record<string, unknown>)[id]
const writeB = async (id: string, value: unknown) => (await call("PUT", "/api/v1/channels/set", { select: { id }, value })).json
const properties = async (id: string) =>
  ((await call("GET", "/api/v1/services", { id })).json as ReadonlyArray<{ readonly properties: Record<string, string> }>)[0]?.properties
const warnings = (text: string) => started().gateway.logs().filter((line) => line.startsWith("WARN") && line.includes(text))
const service = (device: string) => `service:${device}@mqtt-discovery`
const setter = (local: string) => `setter:${local}@mqtt-discovery`

/** A switch of its own device, commanding `command`. */
const switchOf = (device: string, command: string, more: Record<string, unknown> = {}) => ({ cmd_t: command, uniq_id: device, dev: { ids: device }, ...more })

/** Publishes a config that is read, and waits until its device is listed: what came before it was read too. */
const marker = async (name: string) => {
  await publish(config("switch", `marker/${name}`), switchOf(`marker-${name}`, `marker/${name}/set`))
  await eventuallyAsync(serviceIds, (ids) => ids.includes(service(`marker-${name}`)))
}

beforeAll(async () => {
  mosquitto = await startMosquitto()
  player = await connectAsync(mosquitto.url, { reconnectPeriod: 100 })
  player.on("message", (topic, payload) => heard.push({ topic, payload: payload.toString("utf8") }))
  await player.subscribeAsync([`${baseTopic}/bridge/request/#`, "marker/#", "hvac/#"])
  bridge = await startFakeBridge(mosquitto.url, { baseTopic })
  await publish(config("switch", "good/relay"), switchOf("good", "good/relay/set", { stat_t: "good/relay/state" }))
  await publish("good/relay/state", "ON")
  gateway = await startGateway({ adapter: "simulator@hostile.test", services: [] }, {
    mqtt: Option.some(mosquitto.url),
    mqttBaseTopic: baseTopic,
    mqttDiscovery: Option.some(prefix),
    deviceTimeoutMs: 3_000
  }, { captureLogs: true })
  await eventuallyAsync(() => readB("getter:good.switch.relay@mqtt-discovery"), (value) => value !== null && value !== undefined)
})
afterAll(async () => {
  await gateway?.close()
  await bridge?.close()
  await player?.endAsync()
  await mosquitto?.stop()
})

describe("a discovery config naming a topic MQTT forbids", () => {
  it("is refused when it arrives, said once; discovery goes on, with no reconnection", async () => {
    const forbidden = [
      ["nul", { stat_t: "evil/a\u0000b" }, "its state_topic holds a control character"],
      ["wildcard", { stat_t: "evil/+/state" }, "its state_topic holds a wildcard (+ or #)"],
      ["empty", { stat_t: "" }, "its state_topic is empty"],
      ["surrogate", { stat_t: "evil/\ud800" }, "its state_topic is not UTF-8"],
      ["long", { stat_t: `evil/${"é".repeat(33_000)}` }, "its state_topic is too long for a topic (65,535 bytes of UTF-8)"],
      ["availability", { stat_t: "evil/ok", availability: [{ topic: "evil/\u0000" }] }, "its availability topic holds a control character"]
    ] as const
    for (const round of [1, 2]) {
      for (const [name, topics] of forbidden) {
        await publish(config("sensor", `evil/${name}`), { ...topics, unit_of_meas: "W", uniq_id: `evil-${name}`, dev: { ids: `evil-${name}` } }, round === 1)
      }
    }
    await marker("topics")
    for (const [name, , why] of forbidden) {
      expect(warnings(config("sensor", `evil/${name}`))).toEqual([`WARN ignoring the MQTT discovery config on ${config("sensor", `evil/${name}`)}: ${why}`])
    }
    expect((await serviceIds()).filter((id) => id.includes("evil-"))).toEqual([])
    expect(await readB("getter:good.switch.relay@mqtt-discovery")).toEqual({ OnOff: "On" })
    expect(warnings("lost the MQTT broker")).toEqual([])
  })
})

describe("a discovery config aimed at another bridge's commands", () => {
  it("cannot have a token scoped to a guest lamp and a guest thermostat open Zigbee joining or remove a device", async () => {
    const guestLamp = { name: "Guest lamp", cmd_t: `${baseTopic}/bridge/request/permit_join`, pl_on: `{"value":true,"time":254}`, uniq_id: "guest-lamp", dev: { ids: "guest-lamp" } }
    const guestThermostat = {
      name: "Guest room",
      temperature_command_topic: "hvac/guest/temperature/set",
      mode_command_topic: `${baseTopic}/bridge/request/device/remove`,
      modes: ["off", "heat"],
      unique_id: "guest-thermostat",
      device: { identifiers: ["guest-thermostat"] }
    }
    await publish(config("switch", "guest/lamp"), guestLamp)
    await publish(config("climate", "guest/thermostat"), guestThermostat)
    await marker("attack")
    expect(warnings(config("switch", "guest/lamp"))).toEqual([
      `WARN ignoring the MQTT discovery config on ${config("switch", "guest/lamp")}: its command topic ${baseTopic}/bridge/request/permit_join is under Zigbee2MQTT's base topic ${baseTopic}`
    ])
    expect(warnings(config("climate", "guest/thermostat"))).toEqual([
      `WARN ignoring the MQTT discovery config on ${config("climate", "guest/thermostat")}: its command topic ${baseTopic}/bridge/request/device/remove is under Zigbee2MQTT's base topic ${baseTopic}`
    ])
    const { token } = await started().gateway.createToken({
      scope: {
        channels: ["guest-lamp", "guest-thermostat"].map((device) => channelSelector({ service: exactly(ServiceId.make(service(device))) })),
        rights: ["write"]
      }
    })
    const from = heard.length
    for (const [id, value] of [
      [setter("guest-lamp.switch.lamp"), { OnOff: "On" }],
      [setter("guest-thermostat.climate.thermostat.mode"), { String: `{"id":"0x0017880100000001","force":true}` }]
    ] as const) {
      const answer = await send(`${started().gateway.baseUrl}/api/v1/channels/set`, {
        method: "PUT",
        headers: { authorization: `Bearer ${token}` },
        body: JSON.stringify({ select: { id }, value })
      })
      expect(JSON.parse(answer.body)).toEqual({ [id]: { Error: { NoSuchSetter: id } } })
    }
    // The marker's command goes after them, on the same connection: once it is heard, they would have been.
    expect(await writeB(setter("marker-attack.switch.attack"), { OnOff: "On" })).toEqual({ [setter("marker-attack.switch.attack")]: null })
    await eventuallyAsync(async () => heard.slice(from).filter((m) => m.topic === "marker/attack/set").length, (n) => n > 0)
    expect(heard.slice(from).filter((m) => m.topic.startsWith(`${baseTopic}/`))).toEqual([])
    expect((await serviceIds()).filter((id) => id.includes("guest-"))).toEqual([])
  })

  it("refuses command topics under the discovery prefix, $-topics, and one another device commands, until that one's config is removed", async () => {
    await publish(config("switch", "own/first"), switchOf("first-owner", "shared/command"))
    await publish(config("switch", "own/second"), switchOf("second-owner", "shared/command"))
    await publish(config("switch", "own/prefix"), switchOf("prefix-owner", `${prefix}/status`))
    await publish(config("switch", "own/dollar"), switchOf("dollar-owner", "$SYS/broker/restart"))
    await marker("owners")
    const said = (path: string) => warnings(config("switch", path)).map((line) => line.slice(`WARN ignoring the MQTT discovery config on ${config("switch", path)}: `.length))
    expect(said("own/second")).toEqual(["its command topic shared/command is already commanded by the device first-owner"])
    expect(said("own/prefix")).toEqual([`its command topic ${prefix}/status is under the discovery prefix ${prefix}`])
    expect(said("own/dollar")).toEqual(["its command topic $SYS/broker/restart is one of the broker's own ($)"])
    expect((await serviceIds()).filter((id) => id.includes("-owner@"))).toEqual([service("first-owner")])
    await publish(config("switch", "own/first"), "")
    await eventuallyAsync(serviceIds, (ids) => !ids.includes(service("first-owner")))
    await publish(config("switch", "own/second"), switchOf("second-owner", "shared/command"))
    await eventuallyAsync(serviceIds, (ids) => ids.includes(service("second-owner")))
    expect((await serviceIds()).filter((id) => id.includes("-owner@"))).toEqual([service("second-owner")])
  })

  it("writes a climate's mode setter only with one of its announced modes", async () => {
    await publish(config("climate", "hvac/study"), {
      name: "Study",
      mode_state_topic: "hvac/study/mode",
      mode_command_topic: "hvac/study/mode/set",
      modes: ["off", "heat"],
      unique_id: "study",
      device: { identifiers: ["study-hvac"] }
    })
    const mode = setter("study-hvac.climate.study.mode")
    await eventuallyAsync(serviceIds, (ids) => ids.includes(service("study-hvac")))
    const from = heard.length
    expect(await writeB(mode, { String: "auto" })).toEqual({ [mode]: { Error: { InternalError: `MQTT discovery's climate.study.mode takes one of off, heat, not "auto"` } } })
    expect(await writeB(mode, { String: "heat" })).toEqual({ [mode]: null })
    await eventuallyAsync(async () => heard.slice(from).filter((m) => m.topic === "hvac/study/mode/set").length, (n) => n > 0)
    expect(heard.slice(from).filter((m) => m.topic === "hvac/study/mode/set").map((m) => m.payload)).toEqual(["heat"])
  })
})

describe("text a device supplies", () => {
  it("is cut to 256 characters with … in the properties of a discovered device (a Zigbee2MQTT device's: below)", async () => {
    const long = `${"ab".repeat(50_000)}`
    await publish(config("switch", "long/name"), switchOf("long-name", "long/name/set", { dev: { ids: "long-name", name: long, mdl: "\u{1F4A1}".repeat(300) } }))
    await eventuallyAsync(serviceIds, (ids) => ids.includes(service("long-name")))
    const shown = await properties(service("long-name"))
    expect(shown?.["name"]).toBe(`${long.slice(0, 255)}…`)
    expect(shown?.["model"]).toBe(`${"\u{1F4A1}".repeat(255)}…`)
  })
})

describe("Zigbee2MQTT devices whose friendly names cannot be topics", () => {
  it("are not shown, each said once, nothing published for them; the others keep answering", async () => {
    await started().player.subscribeAsync(`${baseTopic}/#`)
    const from = heard.length
    const [, light] = bridgeDevices
    if (light === undefined) throw new Error("the fake bridge has no light")
    const named = (n: number, friendly_name: string, more: Record<string, unknown> = {}) => ({
      ...light,
      ieee_address: `0x00000000000000${String(n).padStart(2, "0")}`,
      friendly_name,
      ...more
    })
    const refused = [
      [named(1, "bad\u0000x"), "its friendly name holds a control character"],
      [named(2, "wild/+/#"), "its friendly name holds a wildcard (+ or #)"],
      [named(3, ""), "its friendly name is empty"],
      [named(4, "lone\udc00"), "its friendly name is not UTF-8"],
      [named(5, "n".repeat(70_000)), "its friendly name is too long for a topic (65,535 bytes of UTF-8)"]
    ] as const
    const longAddress = { ...named(6, "long_address"), ieee_address: `0x${"f".repeat(300)}` }
    const described = named(7, "garden/lamp", { definition: { ...light.definition, description: "d".repeat(1_000) } })
    for (const round of [1, 2]) {
      await started().bridge.setDevices([...bridgeDevices, ...refused.map(([device]) => device), longAddress, described, ...(round === 2 ? [named(8, "porch")] : [])])
    }
    await eventuallyAsync(serviceIds, (ids) => ids.includes("service:0x0000000000000008@zigbee2mqtt"))
    for (const [device, why] of refused) {
      expect(warnings(`Zigbee2MQTT device ${device.ieee_address} `)).toEqual([`WARN Zigbee2MQTT device ${device.ieee_address} is not shown: ${why}`])
    }
    expect(warnings("Zigbee2MQTT device number ")).toEqual([
      `WARN Zigbee2MQTT device number ${bridgeDevices.length + refused.length + 1} of bridge/devices is not shown: its ids would be longer than 256 characters or hold control characters`
    ])
    const ids = await serviceIds()
    expect(refused.map(([device]) => `service:${device.ieee_address}@zigbee2mqtt`).filter((id) => ids.includes(id))).toEqual([])
    expect((await properties("service:0x0000000000000007@zigbee2mqtt"))?.["description"]).toBe(`${"d".repeat(255)}…`)
    // A device with a `/` in its name is written on its topic, and the connection that carries it never dropped.
    const state = "setter:0x0000000000000007.state@zigbee2mqtt"
    expect(await writeB(state, { OnOff: "On" })).toEqual({ [state]: null })
    await eventuallyAsync(async () => heard.slice(from).filter((m) => m.topic === `${baseTopic}/garden/lamp/set`).length, (n) => n > 0)
    expect(heard.slice(from).filter((m) => /^[^/]+\/(?:bad|wild|lone|nnnn)/.test(m.topic))).toEqual([])
    expect(warnings("lost the MQTT broker")).toEqual([])
  })
})
