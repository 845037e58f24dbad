import * as Option from "effect/Option"
import { connectAsync, type MqttClient } from "mqtt"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { type Mosquitto, startMosquitto, type Subscription } from "../../support/mosquitto.ts"

/**
 * The MQTT discovery adapter follows the topics its entities read, and no more, as the broker itself
 * sees it (mosquitto's log of each SUBSCRIBE and UNSUBSCRIBE): an entity's state and availability
 * topics are subscribed to when it is announced, and let go when its config is emptied, unless another
 * entity still reads them.
 */

const prefix = `ha-topics-${process.pid}`
const device = { ids: "d15c0fe7", name: "plug" }
const configTopic = (object: string) => `${prefix}/sensor/plug/${object}/config`
const sensor = (object: string) => ({ name: object, stat_t: `plug/sensor/${object}/state`, avty_t: "plug/status", uniq_id: `plug${object}`, dev: device })

let mosquitto: Mosquitto | undefined
let player: MqttClient | undefined
let gateway: GatewayOverHttp | undefined

beforeAll(async () => {
  mosquitto = await startMosquitto({ logSubscriptions: true })
  player = await connectAsync(mosquitto.url, { reconnectPeriod: 100, clientId: `player-${process.pid}` })
  gateway = await startGateway({ adapter: "simulator@topics.test", services: [] }, {
    mqtt: Option.some(mosquitto.url),
    mqttBaseTopic: `z2m-topics-${process.pid}`,
    mqttDiscovery: Option.some(prefix)
  }, { captureLogs: true })
})

afterAll(async () => {
  await gateway?.close()
  await player?.endAsync()
  await mosquitto?.stop()
})

const publish = (topic: string, payload: unknown) => {
  if (player === undefined) throw new Error("the suite did not start")
  return player.publishAsync(topic, typeof payload === "string" ? payload : JSON.stringify(payload), { retain: true, qos: 1 })
}

/** The broker's next (un)subscriptions of the topics `watched`, until `count` of them, whatever else it logs. */
const next = async (watched: ReadonlyArray<string>, count: number): Promise<ReadonlyArray<Omit<Subscription, "client">>> => {
  const seen: Array<Omit<Subscription, "client">> = []
  while (seen.length < count) {
    const logged = await (mosquitto?.subscriptions.next() ?? Promise.reject(new Error("no broker")))
    if (watched.includes(logged.topic)) seen.push({ subscribed: logged.subscribed, topic: logged.topic })
  }
  return seen
}

/** One packet's topics come in the order the client gave them: compared in topic order. */
const byTopic = <A extends { readonly topic: string }>(seen: ReadonlyArray<A>) => [...seen].sort((a, b) => a.topic.localeCompare(b.topic))

describe("the MQTT discovery adapter's subscriptions", () => {
  it("subscribes to what an entity reads, and lets each topic go once no entity reads it", async () => {
    const [power, energy, status] = ["plug/sensor/power/state", "plug/sensor/energy/state", "plug/status"]
    const watched = [power, energy, status]
    await publish(configTopic("power"), sensor("power"))
    expect(byTopic(await next(watched, 2))).toEqual([{ subscribed: true, topic: power }, { subscribed: true, topic: status }])
    await publish(configTopic("energy"), sensor("energy"))
    expect(await next(watched, 1)).toEqual([{ subscribed: true, topic: energy }])
    // The availability topic stays: the energy sensor reads it too.
    await publish(configTopic("power"), "")
    expect(await next(watched, 1)).toEqual([{ subscribed: false, topic: power }])
    await publish(configTopic("energy"), "")
    expect(byTopic(await next(watched, 2))).toEqual([{ subscribed: false, topic: energy }, { subscribed: false, topic: status }])
  }, 30_000)
})
