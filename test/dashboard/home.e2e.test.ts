import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { Locator, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ChannelId, channelSelector, type Client, createClient, exactly } from "../../src/client/index.ts"
import { demoHome } from "../../src/adapters/simulator/DemoHome.ts"
import { nodePlatform } from "../../src/client-node/index.ts"
import { artifactsDir, fitsTheScreen, seriousViolations } from "../support/browser.ts"
import { dashboardOnDemoHomeOfFile, signedIn } from "../support/dashboardOnDemoHome.ts"
import { send } from "../support/httpRequest.ts"

/**
 * The dashboard's home in a real Chromium, against the built gateway (`npm run build` first) on the
 * demo home (as a home file, so that a test can break a device): services by their names, values that
 * change on screen as another client writes, a switch that turns a light on, a colour picked for a
 * light, and the words of a device that fails. The test is that
 * other client: the typed client over Node, with a session of its own.
 */

const screenshots = artifactsDir("dashboard")

const rig = dashboardOnDemoHomeOfFile()
let otherClient: Client | undefined

beforeAll(() => {
  otherClient = createClient({ url: rig().gateway.baseUrl, token: rig().ownerToken, vocabulary: "b", platform: nodePlatform })
})

afterAll(() => otherClient?.close())

/** The other client, once the rig started. */
const other = (): Client => {
  if (otherClient === undefined) throw new Error("the other client was not made")
  return otherClient
}

/*
 * What the page shows after a send or a device's report comes over the network, through the gateway and
 * sometimes a device with latency: waited for as Playwright waits for an element (its action time-out, a
 * bound for a stuck test), not polled for a second, which a busy machine outlasts.
 */

/** A text that is exactly `text`, for a locator's `hasText`. */
const wholeText = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`)

/** Waits until one element of `locator` says exactly `text`. */
const says = (locator: Locator, text: string) => locator.filter({ hasText: wholeText(text) }).first().waitFor()

/** Waits until the page shows `text` as the value of a getter. */
const showsValue = (page: Page, getter: string, text: string) => says(page.locator(`[id="value-${getter}"]`), text)

/**
 * For what no element's wait can tell (an input's value, an answer of the API): polled, within a bound for
 * a stuck test rather than expect.poll's one second, for it waits on the gateway and a device too.
 */
const overTheNetwork = { timeout: 15_000 }

/** Waits until the switch of a setter shows the state `checked`. */
const switched = (page: Page, setter: string, checked: boolean) => page.getByRole("switch", { name: setter, checked }).waitFor()

const setter = (id: string) => channelSelector({ id: exactly(ChannelId.make(id)), mechanism: exactly("setter") })
const getter = (id: string) => channelSelector({ id: exactly(ChannelId.make(id)), mechanism: exactly("getter") })

/** A getter's value as its device reports it now, read over the API. */
const reportedValue = async (id: string) => {
  const [read] = await other().fetch([getter(id)])
  return read?.result._tag === "Success" && read.result.success._tag === "Some" ? read.result.success.value : undefined
}

describe("the dashboard's home", () => {
  it("shows each service by the name its device gives, with its id and model beneath", async () => {
    const { context, page } = await signedIn(rig())
    try {
      const headings = page.getByRole("list", { name: "Services" }).getByRole("heading", { level: 2 })
      const byId = [...demoHome.services].sort((a, b) => (a.id < b.id ? -1 : 1))
      await headings.nth(byId.length - 1).waitFor()
      expect(await headings.allTextContents()).toEqual(byId.map((service) => service.properties.name))
      await page.getByText("service:bedroom-light@sim · Sim colour bulb E27", { exact: true }).waitFor()
    } finally {
      await context.close()
    }
  }, 60_000)

  it("shows each getter's current value, and changes it on screen when another client writes, without a reload", async () => {
    const { context, page, refused } = await signedIn(rig())
    try {
      // The home as a reload shows it, its readings of the services counted.
      const servicesRead: Array<string> = []
      page.on("request", (request) => {
        if (new URL(request.url()).pathname === "/api/v1/services") servicesRead.push(request.url())
      })
      await page.reload()
      const services = page.getByRole("list", { name: "Services" })
      await services.getByRole("heading", { name: "Hall light" }).waitFor()
      // The current values, asked with the watch's registration: the hall light is on, the bedside lamp off.
      await showsValue(page, "getter:hall-light-on@sim", "On")
      await showsValue(page, "getter:bedroom-light-on@sim", "Off")
      await showsValue(page, "getter:thermostat-target@sim", "20 °C")

      const sent = await other().send([{ selectors: [setter("setter:hall-light-on@sim")], value: { _tag: "OnOff", state: "Off" } }])
      expect(sent.map((outcome) => outcome.result._tag)).toEqual(["Success"])
      await showsValue(page, "getter:hall-light-on@sim", "Off")
      await other().send([{ selectors: [setter("setter:hall-light-on@sim")], value: { _tag: "OnOff", state: "On" } }])
      await showsValue(page, "getter:hall-light-on@sim", "On")
      // Once: the watch's announcement of every getter as it registered is what that reading shows already.
      expect(servicesRead).toHaveLength(1)
      await page.screenshot({ path: join(screenshots, "home-values-desktop.png"), fullPage: true })
      expect(refused).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)

  it("turns the bedside lamp on with its switch, from the keyboard, and the simulated lamp is on", async () => {
    const { context, page, refused } = await signedIn(rig())
    try {
      const lamp = page.getByRole("switch", { name: "setter:bedroom-light-on@sim" })
      await switched(page, "setter:bedroom-light-on@sim", false)
      expect(await reportedValue("getter:bedroom-light-on@sim")).toEqual({ _tag: "OnOff", state: "Off" })
      await lamp.focus()
      await page.keyboard.press("Enter")
      // The switch shows the state the lamp reports, once it reports it.
      await switched(page, "setter:bedroom-light-on@sim", true)
      expect(await reportedValue("getter:bedroom-light-on@sim")).toEqual({ _tag: "OnOff", state: "On" })
      await showsValue(page, "getter:bedroom-light-on@sim", "On")
      await lamp.press("Space")
      await switched(page, "setter:bedroom-light-on@sim", false)
      expect(await reportedValue("getter:bedroom-light-on@sim")).toEqual({ _tag: "OnOff", state: "Off" })
      expect(refused).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)

  it("sets the oven's timer, says something through the kitchen speaker and takes a snapshot, each with its control", async () => {
    const { context, page, refused } = await signedIn(rig())
    /** Where the control of a setter says how its last send went (a setter without a getter shows nothing else). */
    const statusOf = (setterId: string) => page.locator(`[aria-labelledby~="name-${setterId}"] [role="status"], [aria-labelledby~="name-${setterId}"] ~ [role="status"]`)
    try {
      const timer = page.getByRole("spinbutton", { name: "setter:oven-timer@sim", exact: true })
      await timer.fill("-5")
      await timer.press("Enter")
      await says(page.getByRole("alert"), "a duration is a number of seconds, 0 or more")
      await timer.fill("300")
      await timer.press("Enter")
      await showsValue(page, "getter:oven-timer@sim", "300 s")
      expect(await reportedValue("getter:oven-timer@sim")).toEqual({ _tag: "Duration", seconds: 300 })
      await says(statusOf("setter:oven-timer@sim"), "Sent.")

      await page.getByRole("textbox", { name: "setter:kitchen-speaker-log@sim", exact: true }).fill("dinner is ready")
      await page.getByRole("form", { name: "setter:kitchen-speaker-log@sim", exact: true }).getByRole("button", { name: "Send" }).click()
      await says(statusOf("setter:kitchen-speaker-log@sim"), "Sent.")

      await page.getByRole("button", { name: "Send setter:front-door-camera-snapshot@sim" }).click()
      await says(statusOf("setter:front-door-camera-snapshot@sim"), "Sent.")
      expect(refused).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)

  it("sends the colour picked for the bedside lamp, at the brightness it reports, and shows a colour another client sends", async () => {
    const { context, page, refused } = await signedIn(rig())
    try {
      const color = "getter:bedroom-light-color@sim"
      const picker = page.getByLabel("setter:bedroom-light-color@sim", { exact: true })
      // The lamp reports hue 280, saturation 0.35, brightness 0.8: shown at full brightness.
      await expect.poll(() => picker.inputValue(), overTheNetwork).toBe("#e1a6ff")
      await picker.fill("#3366ff")
      await expect.poll(() => reportedValue(color), overTheNetwork).toEqual({ _tag: "Color", h: 225, s: 0.8, v: 0.8 })
      await showsValue(page, color, "hue 225°, saturation 80 %, brightness 80 %")
      await expect.poll(() => picker.inputValue(), overTheNetwork).toBe("#3366ff")
      await other().send([{ selectors: [setter("setter:bedroom-light-color@sim")], value: { _tag: "Color", h: 120, s: 0.5, v: 0.6 } }])
      await expect.poll(() => picker.inputValue(), overTheNetwork).toBe("#80ff80")
      await showsValue(page, color, "hue 120°, saturation 50 %, brightness 60 %")
      expect(refused).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)

  it("unlocks the front door with its switch and sets the thermostat with its entry; the devices report it", async () => {
    const { context, page, refused } = await signedIn(rig())
    try {
      const lock = page.getByRole("switch", { name: "setter:front-door-lock@sim" })
      await switched(page, "setter:front-door-lock@sim", true)
      await says(lock, "Locked")
      await lock.click()
      await switched(page, "setter:front-door-lock@sim", false)
      expect(await reportedValue("getter:front-door-lock@sim")).toEqual({ _tag: "DoorLocked", state: "Unlocked" })
      await showsValue(page, "getter:front-door-lock@sim", "Unlocked")
      await lock.click()
      await switched(page, "setter:front-door-lock@sim", true)

      const setpoint = page.getByRole("spinbutton", { name: "setter:thermostat-target@sim" })
      await setpoint.fill("21.5")
      await setpoint.press("Enter")
      await showsValue(page, "getter:thermostat-target@sim", "21.5 °C")
      expect(await reportedValue("getter:thermostat-target@sim")).toEqual({ _tag: "Temperature", unit: "C", degrees: 21.5 })
      expect(refused).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)

  it("adds a tag to a channel from the page, seen over the API in both vocabularies, filters by it, and removes it", async () => {
    const { context, page, refused } = await signedIn(rig())
    try {
      const lamp = "getter:bedroom-light-on@sim"
      await showsValue(page, lamp, "Off")
      await page.getByRole("textbox", { name: `A new tag for ${lamp}` }).fill("night")
      await page.getByRole("button", { name: `Add the tag to ${lamp}` }).click()
      await page.getByRole("button", { name: `Remove the tag night from ${lamp}` }).waitFor()
      // Over the API: B's getter listing, and A's input listing, by the tag.
      const inB = await send(`${rig().gateway.baseUrl}/api/v1/channels/getters`, {
        method: "POST", headers: { authorization: `Bearer ${rig().ownerToken}`, "content-type": "application/json" }, body: `[{"tags":["night"]}]`
      })
      expect((JSON.parse(inB.body) as ReadonlyArray<{ readonly id: string }>).map((c) => c.id)).toEqual([lamp])
      const inA = await send(`${rig().gateway.baseUrl}/api/v1/channels`, {
        headers: { authorization: `Bearer ${rig().ownerToken}`, "content-type": "application/json" }, body: `[{"tags":["night"]}]`
      })
      expect((JSON.parse(inA.body) as ReadonlyArray<{ readonly id: string }>).map((c) => c.id)).toEqual([lamp])
      // The filter shows only the service whose channel carries it.
      await page.getByRole("searchbox", { name: "Show only what carries the tag" }).fill("night")
      const headings = page.getByRole("list", { name: "Services" }).getByRole("heading")
      await headings.nth(1).waitFor({ state: "detached" })
      expect(await headings.allTextContents()).toEqual(["Bedside lamp"])
      await page.getByRole("searchbox", { name: "Show only what carries the tag" }).fill("")
      await page.getByRole("button", { name: `Remove the tag night from ${lamp}` }).click()
      await page.getByRole("button", { name: `Remove the tag night from ${lamp}` }).waitFor({ state: "detached" })
      expect(refused).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)

  it("says in words, beside the switch and the colour picker, why a device did not take the value", async () => {
    const { context, page } = await signedIn(rig())
    try {
      const kitchen = page.getByRole("switch", { name: "setter:kitchen-light-on@sim" })
      await switched(page, "setter:kitchen-light-on@sim", false)
      // The kitchen light breaks: every send to it fails from now on (the simulator reads its file again).
      writeFileSync(rig().homeFile, JSON.stringify({
        ...demoHome,
        services: demoHome.services.map((service) => (service.id === "service:kitchen-light@sim" ? { ...service, fail: "error" } : service))
      }))
      // Asked with the state it has, so that a send before the simulator reads the file changes nothing.
      const refusedByDevice = async () => {
        const [outcome] = await other().send([{ selectors: [setter("setter:kitchen-light-on@sim")], value: { _tag: "OnOff", state: "Off" } }])
        return outcome?.result._tag
      }
      await expect.poll(refusedByDevice, overTheNetwork).toBe("Failure")
      await kitchen.click()
      const failed = `the device failed: service:kitchen-light@sim failed (simulated "fail": "error")`
      await says(page.getByRole("alert"), failed)
      await switched(page, "setter:kitchen-light-on@sim", false)
      // The picker too; it keeps showing the colour the light reports (hue 40, saturation 0.35), not the one picked.
      const picker = page.getByLabel("setter:kitchen-light-color@sim", { exact: true })
      await picker.fill("#ff0000")
      await says(page.getByRole("alert").nth(1), failed)
      expect(await page.getByRole("alert").allTextContents()).toEqual([failed, failed])
      await expect.poll(() => picker.inputValue(), overTheNetwork).toBe("#ffe1a6")
      await page.screenshot({ path: join(screenshots, "home-switch-problem-desktop.png"), fullPage: true })
    } finally {
      await context.close()
    }
  }, 60_000)

  it("shows a device that joins and drops one that leaves (home-file edits), without a reload", async () => {
    const { context, page } = await signedIn(rig())
    try {
      const services = page.getByRole("list", { name: "Services" })
      const porch = services.getByRole("heading", { name: "service:porch-light@sim" })
      await showsValue(page, "getter:hall-light-on@sim", "On")
      expect(await porch.count()).toBe(0)
      // The file as the tests before left it, with one light more, then without it.
      const before: unknown = JSON.parse(readFileSync(rig().homeFile, "utf8"))
      const home = before as { readonly services: ReadonlyArray<unknown> }
      // Without a name: shown by its id.
      const porchLight = {
        id: "service:porch-light@sim",
        tags: ["porch"],
        getters: [{ id: "getter:porch-light-on@sim", kind: "OnOff", tags: [], value: { OnOff: "On" } }]
      }
      writeFileSync(rig().homeFile, JSON.stringify({ ...home, services: [...home.services, porchLight] }))
      await porch.waitFor()
      await showsValue(page, "getter:porch-light-on@sim", "On")
      writeFileSync(rig().homeFile, JSON.stringify(before))
      await porch.waitFor({ state: "detached" })
      await showsValue(page, "getter:hall-light-on@sim", "On")
    } finally {
      await context.close()
    }
  }, 60_000)

  it("shows a device's name isolated (<bdi>) and without bidi controls, so that U+202E cannot turn it around", async () => {
    const { context, page } = await signedIn(rig())
    try {
      const before = readFileSync(rig().homeFile, "utf8")
      const home = JSON.parse(before) as { readonly services: ReadonlyArray<unknown> }
      const reversed = {
        id: "service:reversed@sim",
        tags: [],
        properties: { name: "Porch \u202Ethgil\u2066 \u200F\u061Cend" },
        getters: [{ id: "getter:reversed-on@sim", kind: "OnOff", tags: [], value: { OnOff: "On" } }]
      }
      writeFileSync(rig().homeFile, JSON.stringify({ ...home, services: [...home.services, reversed] }))
      const heading = page.locator(`[id="service-service:reversed@sim"]`)
      await heading.waitFor()
      expect(await heading.innerHTML()).toBe("<bdi>Porch thgil end</bdi>")
      writeFileSync(rig().homeFile, before)
      await heading.waitFor({ state: "detached" })
    } finally {
      await context.close()
    }
  }, 60_000)

  it("is readable at phone width and has no serious or critical accessibility violation", async () => {
    const { context, page } = await signedIn(rig(), { bypassCSP: true, width: "phone" })
    try {
      await showsValue(page, "getter:hall-light-on@sim", "On")
      expect(await seriousViolations(page)).toEqual([])
      expect(await fitsTheScreen(page)).toBe(true)
      await page.screenshot({ path: join(screenshots, "home-values-phone.png"), fullPage: true })
    } finally {
      await context.close()
    }
  }, 60_000)
})
