import { Option } from "effect"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { demoHome } from "../../src/adapters/simulator/DemoHome.ts"
import { type Mosquitto, startMosquitto } from "../support/mosquitto.ts"
import { sharedChromium, tabOfFile } from "../support/browser.ts"
import { builtDashboard, owner, showOwnersHome } from "../support/dashboardOnDemoHome.ts"
import { type GatewayOverHttp, startGateway } from "../support/gatewayOverHttp.ts"
import { type FakeBridge, ieee, startFakeBridge } from "../support/zigbee2mqttBridge.ts"

/**
 * The dashboard of a gateway that follows a Zigbee2MQTT bridge on a real broker (mosquitto), in a real
 * Chromium: a device that goes offline leaves the page and comes back with its availability, a state
 * the bridge publishes changes on screen, and a switch on the page reaches the bridge as its `/set`.
 */

let mosquitto: Mosquitto | undefined
let bridge: FakeBridge | undefined
let gateway: GatewayOverHttp | undefined

beforeAll(async () => {
  // Chromium first: where it is missing, sharedChromium throws before the broker starts.
  ;[, mosquitto] = await Promise.all([sharedChromium(), startMosquitto()])
  bridge = await startFakeBridge(mosquitto.url, { baseTopic: "house" })
  // In this process, as the signed-in pages' rig runs it (dashboardOnDemoHome.ts), on the demo home.
  gateway = await startGateway(demoHome, { dashboard: Option.some(builtDashboard), mqtt: Option.some(mosquitto.url), mqttBaseTopic: "house" })
  await gateway.createToken({ user: owner.username })
}, 60_000)

afterAll(async () => {
  await gateway?.close()
  await bridge?.close()
  await mosquitto?.stop()
})

/** One tab for both tests, signed in as the owner. */
const tab = tabOfFile(({ page }) => {
  if (gateway === undefined) throw new Error("the suite did not start")
  return showOwnersHome(page, gateway.baseUrl)
})

/** The tab and the bridge, once the suite started. */
const signedIn = () => {
  if (bridge === undefined) throw new Error("the suite did not start")
  return { ...tab(), bridge }
}

const shownValue = (page: Page, getter: string) => page.locator(`[id="value-${getter}"]`).textContent()
const isShown = (page: Page, getter: string) => page.locator(`[id="value-${getter}"]`).count()

describe("the dashboard of a home behind a Zigbee2MQTT bridge", () => {
  it("drops a device that goes offline and shows it again when it is back, with the states the bridge publishes", async () => {
    const { page, refused, bridge } = signedIn()
    const contact = `getter:${ieee.door}.contact@zigbee2mqtt`
    try {
      await expect.poll(() => shownValue(page, contact)).toBe("Closed")
      await bridge.publishState("front_door", { contact: false })
      await expect.poll(() => shownValue(page, contact)).toBe("Open")

      await bridge.setAvailability("front_door", false)
      await expect.poll(() => isShown(page, contact)).toBe(0)
      await bridge.setAvailability("front_door", true)
      await expect.poll(() => shownValue(page, contact)).toBe("Open")
      expect(refused).toEqual([])
    } finally {
      await bridge.publishState("front_door", { contact: true })
    }
  }, 60_000)

  it("turns the light on with its switch: the bridge gets the /set, and the switch follows the state it publishes", async () => {
    const { page, refused, bridge } = signedIn()
    const lamp = page.getByRole("switch", { name: "living_room_light", exact: true })
    const before = bridge.received.length
    const wasOn = (await lamp.getAttribute("aria-checked")) === "true"
    await lamp.click()
    await expect.poll(() => lamp.getAttribute("aria-checked")).toBe(wasOn ? "false" : "true")
    expect(bridge.received.slice(before)).toContainEqual({ topic: "house/living_room_light/set", payload: { state: wasOn ? "OFF" : "ON" } })
    expect(refused).toEqual([])
  }, 60_000)
})
