import { connectAsync, type MqttClient } from "mqtt"

/**
 * A Zigbee2MQTT bridge for the replica tests, on a real broker: the retained `bridge/state` and
 * `bridge/devices`, and devices whose values it numbers. Each of `counters` devices has one number,
 * `count`, that the player raises by one on every tick (`play`: every channel 10 times a second), so
 * that a watcher can tell a missed value (a gap) from one out of order (a step back). A `/get` is
 * answered as Zigbee2MQTT answers it, with the device's state as it is (no new number); a `/set` of the
 * one writable device, `target`, is recorded and its state published, so that a test can check that a
 * write reached the bridge exactly once.
 */

export const counterCount = 50

const ieeeOf = (index: number) => `0x00000000000a${index.toString(16).padStart(4, "0")}`
const counterName = (index: number) => `counter_${String(index).padStart(2, "0")}`

/** The gateway's getter of counter `index` (docs/adapters/mqtt.md: `getter:<ieee>.<property>@zigbee2mqtt`). */
export const counterGetter = (index: number): string => `getter:${ieeeOf(index)}.count@zigbee2mqtt`

const targetIeee = "0x00000000000bffff"
/** The gateway's setter of the writable device's `level`. */
export const targetSetter = `setter:${targetIeee}.level@zigbee2mqtt`

const device = (ieee: string, name: string, exposes: ReadonlyArray<unknown>) => ({
  ieee_address: ieee,
  type: "EndDevice",
  network_address: 1,
  supported: true,
  friendly_name: name,
  disabled: false,
  interview_completed: true,
  definition: { model: "replica-test", vendor: "test", description: "a device of the replica tests", exposes }
})

const devices = [
  { ieee_address: "0x00124b0000000000", type: "Coordinator", network_address: 0, supported: true, friendly_name: "Coordinator", disabled: false, definition: null, interview_completed: true },
  ...Array.from({ length: counterCount }, (_, index) =>
    device(ieeeOf(index), counterName(index), [{ type: "numeric", name: "count", property: "count", access: 5, value_min: 0 }])),
  device(targetIeee, "target", [{ type: "numeric", name: "level", property: "level", access: 7, value_min: 0 }])
]

export interface BridgePlayer {
  /** The last number published for counter `index` (0 before the first tick). */
  readonly last: (index: number) => number
  /** Every `level` the bridge was told to set, in the order it received them. */
  readonly sets: ReadonlyArray<number>
  /** Raises every counter every `periodMs` until `stop`; answers when the last round is published. */
  readonly play: (periodMs?: number) => { readonly stop: () => Promise<void> }
  readonly close: () => Promise<void>
}

export const startBridgePlayer = async (url: string, baseTopic = "zigbee2mqtt"): Promise<BridgePlayer> => {
  const client: MqttClient = await connectAsync(url, { reconnectPeriod: 100, connectTimeout: 5_000 })
  const counts = Array.from({ length: counterCount }, () => 0)
  const sets: Array<number> = []
  let level = 0
  const publish = (topic: string, payload: unknown, retain: boolean, qos: 0 | 1 = 1) =>
    client.publishAsync(`${baseTopic}/${topic}`, JSON.stringify(payload), { retain, qos }).then(() => undefined)
  // At most once, as Zigbee2MQTT publishes device states by default: 500 a second, and no acknowledgements to read.
  const publishCounter = (index: number) => publish(counterName(index), { count: counts[index] ?? 0 }, false, 0)

  client.on("message", (topic, buffer) => {
    const match = new RegExp(`^${baseTopic}/([^/]+)/(set|get)$`).exec(topic)
    if (match === null) return
    const [, name = "", command] = match
    if (name === "target") {
      if (command === "set") {
        const asked: unknown = JSON.parse(buffer.toString("utf8"))
        level = typeof asked === "object" && asked !== null && "level" in asked && typeof asked.level === "number" ? asked.level : level
        sets.push(level)
      }
      void publish("target", { level }, false)
      return
    }
    const index = Number(/^counter_(\d+)$/.exec(name)?.[1] ?? Number.NaN)
    if (command === "get" && Number.isInteger(index)) void publishCounter(index)
  })
  await client.subscribeAsync([`${baseTopic}/+/set`, `${baseTopic}/+/get`], { qos: 1 })
  await publish("bridge/state", { state: "online" }, true)
  await publish("bridge/devices", devices, true)

  const play = (periodMs = 100) => {
    let round: Promise<unknown> = Promise.resolve()
    const timer = setInterval(() => {
      round = Promise.all(counts.map((_, index) => (counts[index] = (counts[index] ?? 0) + 1, publishCounter(index))))
    }, periodMs)
    return {
      stop: async () => {
        clearInterval(timer)
        await round
      }
    }
  }

  return { last: (index) => counts[index] ?? 0, sets, play, close: () => client.endAsync() }
}
