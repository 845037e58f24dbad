import { readFileSync, writeFileSync } from "node:fs"
import type { Locator, Page, Request } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ChannelId, channelSelector, type Client, createClient, exactly } from "../../src/client/index.ts"
import { demoHome } from "../../src/adapters/simulator/DemoHome.ts"
import { nodePlatform } from "../../src/client-node/index.ts"
import { fitsTheScreen, screenshot, seriousViolations, viewports } from "../support/browser.ts"
import { dashboardOnDemoHomeOfFile, ownersTabOfFile } from "../support/dashboardOnDemoHome.ts"
import { send } from "../support/httpRequest.ts"

/**
 * The dashboard's home in a real Chromium, against a gateway serving the built dashboard (`npm run build` first) on the
 * demo home (as a home file, so that a test can break a device): a card per device, grouped by room,
 * values that change on screen as another client writes, a switch named after its light that turns it
 * on, a colour and a brightness picked for a light, a device moved to another room, and the words of a
 * device that fails. The test is that other client: the typed client over Node, with a session of its own.
 */

const rig = dashboardOnDemoHomeOfFile()
/**
 * One signed-in tab for the file's tests, in order, as a person uses the page. A test undoes what it
 * changes that a later one reads (a device moved, a tag, a joining device); the values test reloads the
 * page, and the layout tests follow it, so that the phone's screenshot (docs/dashboard.md) is the home as
 * it loads.
 */
const tab = ownersTabOfFile(rig)
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

/** Waits until the switch of a device (named after it) shows the state `checked`. */
const switched = (page: Page, device: string, checked: boolean) => page.getByRole("switch", { name: device, exact: true, checked }).waitFor()

/** A device's card, by its name. */
const card = (page: Page, device: string) => page.getByRole("article", { name: device, exact: true })

/** A light's colour picker (Chromium gives `<input type="color">` the role textbox). */
const colourPicker = (page: Page, light: string) => page.getByRole("textbox", { name: `${light} Colour`, exact: true })

/** Opens a device's details, unless they are open. */
const details = async (page: Page, device: string) => {
  const shown = card(page, device)
  await shown.waitFor()
  if ((await shown.locator("details[open]").count()) === 0) await shown.getByText("Details", { exact: true }).click()
  return shown
}

/** How many columns the cards make: the number of their distinct left edges. */
const cardColumns = async (page: Page) =>
  new Set(await page.getByRole("article").evaluateAll((cards) => cards.map((c) => Math.round(c.getBoundingClientRect().left)))).size

const setter = (id: string) => channelSelector({ id: exactly(ChannelId.make(id)), mechanism: exactly("setter") })
const getter = (id: string) => channelSelector({ id: exactly(ChannelId.make(id)), mechanism: exactly("getter") })

/** A getter's value as its device reports it now, read over the API. */
const reportedValue = async (id: string) => {
  const [read] = await other().fetch([getter(id)])
  return read?.result._tag === "Success" && read.result.success._tag === "Some" ? read.result.success.value : undefined
}

describe("the dashboard's home", () => {
  it("shows a card per device by the name it gives, grouped by room, with its id and model behind Details", async () => {
    const { page, errors } = tab()
    const rooms = page.getByRole("heading", { level: 2 })
    await rooms.nth(4).waitFor()
    expect(await rooms.allTextContents()).toEqual(["Bedroom", "Garden", "Hall", "Kitchen", "Living room"])
    // The hall's devices, in the order of their ids.
    const hall = page.getByRole("list", { name: "Hall" }).getByRole("heading", { level: 3 })
    const inHall = demoHome.services.filter((service) => service.tags.includes("room:Hall")).sort((a, b) => (a.id < b.id ? -1 : 1))
    expect(await hall.allTextContents()).toEqual(inHall.map((service) => service.properties.name))
    expect(await page.getByRole("article").count()).toBe(demoHome.services.length)
    // No id on a card's face; behind Details, the id and model, and each channel's id.
    expect(await card(page, "Bedside lamp").textContent()).not.toContain("@sim")
    const lamp = await details(page, "Bedside lamp")
    await lamp.getByText("service:bedroom-light@sim · Sim colour bulb E27", { exact: true }).waitFor()
    await lamp.getByText("setter:bedroom-light-on@sim", { exact: true }).waitFor()
    expect(errors).toEqual([])
  }, 60_000)

  it("shows each getter's current value, and changes it on screen when another client writes, without a reload", async () => {
    const { page, refused } = tab()
    // The home as a reload shows it, its readings of the services counted.
    const servicesRead: Array<string> = []
    const countServicesRead = (request: Request) => {
      if (new URL(request.url()).pathname === "/api/v1/services") servicesRead.push(request.url())
    }
    page.on("request", countServicesRead)
    await page.reload()
    await card(page, "Hall light").waitFor()
    // The current values, asked with the watch's registration: the hall light is on, the bedside lamp off.
    await showsValue(page, "getter:hall-light-on@sim", "On")
    await showsValue(page, "getter:bedroom-light-on@sim", "Off")
    await showsValue(page, "getter:thermostat-target@sim", "20 °C")
    // Readings for people: a temperature with its unit, a duration in words, a snapshot as the image.
    await showsValue(page, "getter:oven-temperature@sim", "21 °C")
    // A getter whose device refuses an Always watch (thresholds only) is read once.
    await showsValue(page, "getter:garden-temperature@sim", "8.5 °C")
    await showsValue(page, "getter:oven-timer@sim", "0 s")
    const snapshot = card(page, "Front door camera").getByRole("img", { name: "Front door camera: Image" })
    await expect.poll(() => snapshot.evaluate((image) => (image as unknown as { readonly naturalWidth: number }).naturalWidth)).toBe(1)

    const sent = await other().send([{ selectors: [setter("setter:hall-light-on@sim")], value: { _tag: "OnOff", state: "Off" } }])
    expect(sent.map((outcome) => outcome.result._tag)).toEqual(["Success"])
    await showsValue(page, "getter:hall-light-on@sim", "Off")
    await other().send([{ selectors: [setter("setter:hall-light-on@sim")], value: { _tag: "OnOff", state: "On" } }])
    await showsValue(page, "getter:hall-light-on@sim", "On")
    // Once: the watch's announcement of every getter as it registered is what that reading shows already.
    expect(servicesRead).toHaveLength(1)
    page.off("request", countServicesRead)
    await screenshot(page, "home-values-desktop")
    expect(refused).toEqual([])
  }, 60_000)

  it("is readable at phone width, one card a row, and has no serious or critical accessibility violation", async () => {
    const { page, errors } = tab()
    await page.setViewportSize(viewports.phone)
    try {
      await showsValue(page, "getter:hall-light-on@sim", "On")
      expect(await cardColumns(page)).toBe(1)
      expect(await seriousViolations(page)).toEqual([])
      expect(await fitsTheScreen(page)).toBe(true)
      expect(errors).toEqual([])
      await screenshot(page, "home-values-phone")
    } finally {
      await page.setViewportSize(viewports.desktop)
    }
  }, 60_000)

  it("fills the width of a desktop with columns of cards, and has no serious or critical accessibility violation", async () => {
    const { page, errors } = tab()
    await showsValue(page, "getter:hall-light-on@sim", "On")
    expect(await cardColumns(page)).toBeGreaterThanOrEqual(3)
    await details(page, "Hall light")
    expect(await seriousViolations(page)).toEqual([])
    expect(errors).toEqual([])
  }, 60_000)

  it("turns the bedside lamp on with its switch, from the keyboard, and the simulated lamp is on", async () => {
    const { page, refused } = tab()
    const lamp = page.getByRole("switch", { name: "Bedside lamp", exact: true })
    // Its state shown once: by the switch, not again as a reading.
    await says(lamp, "Off")
    expect(await card(page, "Bedside lamp").getByText("Off", { exact: true }).count()).toBe(1)
    expect(await reportedValue("getter:bedroom-light-on@sim")).toEqual({ _tag: "OnOff", state: "Off" })
    await lamp.focus()
    await page.keyboard.press("Enter")
    // The switch shows the state the lamp reports, once it reports it.
    await switched(page, "Bedside lamp", true)
    expect(await reportedValue("getter:bedroom-light-on@sim")).toEqual({ _tag: "OnOff", state: "On" })
    await showsValue(page, "getter:bedroom-light-on@sim", "On")
    await lamp.press("Space")
    await switched(page, "Bedside lamp", false)
    expect(await reportedValue("getter:bedroom-light-on@sim")).toEqual({ _tag: "OnOff", state: "Off" })
    expect(refused).toEqual([])
  }, 60_000)

  it("sets the oven's timer, says something through the kitchen speaker and takes a snapshot, each with its control", async () => {
    const { page, refused } = tab()
    /** Where a device's card says how its last send went (a setter without a getter shows nothing else). */
    const statusOf = (device: string) => card(page, device).getByRole("status")
    const timer = page.getByRole("spinbutton", { name: "Oven Timer", exact: true })
    expect(await timer.getAttribute("placeholder")).toBe("minutes")
    await timer.fill("-5")
    await timer.press("Enter")
    await says(page.getByRole("alert"), "a duration is a number of minutes, 0 or more")
    await timer.fill("72")
    await timer.press("Enter")
    await showsValue(page, "getter:oven-timer@sim", "1 h 12 min")
    expect(await reportedValue("getter:oven-timer@sim")).toEqual({ _tag: "Duration", seconds: 4320 })
    await says(statusOf("Oven"), "Sent.")

    const message = page.getByRole("textbox", { name: "Kitchen speaker Message", exact: true })
    expect(await message.getAttribute("placeholder")).toBe("a message to say")
    await message.fill("dinner is ready")
    await page.getByRole("form", { name: "Kitchen speaker Message", exact: true }).getByRole("button", { name: "Send" }).click()
    await says(statusOf("Kitchen speaker"), "Sent.")

    await page.getByRole("button", { name: "Take a snapshot Front door camera", exact: true }).click()
    await says(statusOf("Front door camera"), "Sent.")
    expect(refused).toEqual([])
  }, 60_000)

  it("sends the colour picked for the bedside lamp at the brightness it reports, its brightness from the slider, and shows another client's", async () => {
    const { page, refused } = tab()
    const color = "getter:bedroom-light-color@sim"
    const picker = colourPicker(page, "Bedside lamp")
    const brightness = page.getByRole("slider", { name: "Bedside lamp Brightness", exact: true })
    // The lamp reports hue 280, saturation 0.35, brightness 0.8: shown at full brightness, and 80 %.
    await expect.poll(() => picker.inputValue()).toBe("#e1a6ff")
    expect(await brightness.inputValue()).toBe("80")
    await picker.fill("#3366ff")
    await expect.poll(() => reportedValue(color)).toEqual({ _tag: "Color", h: 225, s: 0.8, v: 0.8 })
    await expect.poll(() => picker.inputValue()).toBe("#3366ff")
    await brightness.fill("40")
    await expect.poll(() => reportedValue(color)).toEqual({ _tag: "Color", h: 225, s: 0.8, v: 0.4 })
    await other().send([{ selectors: [setter("setter:bedroom-light-color@sim")], value: { _tag: "Color", h: 120, s: 0.5, v: 0.6 } }])
    await expect.poll(() => picker.inputValue()).toBe("#80ff80")
    await expect.poll(() => brightness.getAttribute("aria-valuetext")).toBe("60 %")
    expect(refused).toEqual([])
  }, 60_000)

  it("unlocks the front door with its lock's switch and sets the thermostat's set point beside its reading; the devices report it", async () => {
    const { page, refused } = tab()
    const lock = page.getByRole("switch", { name: "Front door lock", exact: true })
    await switched(page, "Front door lock", true)
    await says(lock, "Locked")
    await lock.click()
    await switched(page, "Front door lock", false)
    expect(await reportedValue("getter:front-door-lock@sim")).toEqual({ _tag: "DoorLocked", state: "Unlocked" })
    await showsValue(page, "getter:front-door-lock@sim", "Unlocked")
    await lock.click()
    await switched(page, "Front door lock", true)

    const thermostat = card(page, "Living room thermostat")
    await thermostat.getByRole("term").filter({ hasText: wholeText("Temperature") }).waitFor()
    const setpoint = page.getByRole("spinbutton", { name: "Living room thermostat Set point", exact: true })
    expect([await setpoint.getAttribute("placeholder"), await thermostat.getByText("°C", { exact: true }).count()]).toEqual(["e.g. 21.5", 1])
    await setpoint.fill("21.5")
    await setpoint.press("Enter")
    await showsValue(page, "getter:thermostat-target@sim", "21.5 °C")
    expect(await reportedValue("getter:thermostat-target@sim")).toEqual({ _tag: "Temperature", unit: "C", degrees: 21.5 })
    expect(refused).toEqual([])
  }, 60_000)

  it("adds a tag to a channel from the page, seen over the API in both vocabularies, filters by it, and removes it", async () => {
    const { page, refused } = tab()
    const lamp = "getter:bedroom-light-on@sim"
    await showsValue(page, lamp, "Off")
    await details(page, "Bedside lamp")
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
    // The filter shows only the device whose channel carries it.
    await page.getByRole("searchbox", { name: "Show only what carries the tag" }).fill("night")
    const headings = page.getByRole("heading", { level: 3 })
    await headings.nth(1).waitFor({ state: "detached" })
    expect(await headings.allTextContents()).toEqual(["Bedside lamp"])
    await page.getByRole("searchbox", { name: "Show only what carries the tag" }).fill("")
    await details(page, "Bedside lamp")
    await page.getByRole("button", { name: `Remove the tag night from ${lamp}` }).click()
    await page.getByRole("button", { name: `Remove the tag night from ${lamp}` }).waitFor({ state: "detached" })
    expect(refused).toEqual([])
  }, 60_000)

  it("moves the hall light to another room from its details, seen over the API, and back", async () => {
    const { page, refused } = tab()
    const serviceTags = async () => {
      const listed = await send(`${rig().gateway.baseUrl}/api/v1/services`, { headers: { authorization: `Bearer ${rig().ownerToken}` } })
      return (JSON.parse(listed.body) as ReadonlyArray<{ readonly id: string; readonly tags: ReadonlyArray<string> }>)
        .find((service) => service.id === "service:hall-light@sim")?.tags
    }
    const light = await details(page, "Hall light")
    const room = light.getByRole("combobox", { name: "Room" })
    expect(await room.inputValue()).toBe("Hall")
    await room.fill("Porch")
    await light.getByRole("button", { name: "Move", exact: true }).click()
    await page.getByRole("list", { name: "Porch" }).getByRole("heading", { name: "Hall light" }).waitFor()
    expect(await serviceTags()).toEqual(["hall", "light", "room:Porch"])
    // Back, from the card in its new room.
    const moved = await details(page, "Hall light")
    await moved.getByRole("combobox", { name: "Room" }).fill("Hall")
    await moved.getByRole("button", { name: "Move", exact: true }).click()
    await page.getByRole("list", { name: "Porch" }).waitFor({ state: "detached" })
    expect(await serviceTags()).toEqual(["hall", "light", "room:Hall"])
    expect(refused).toEqual([])
  }, 60_000)

  it("says in words, beside the switch and the colour picker, why a device did not take the value", async () => {
    const { page } = tab()
    const kitchen = page.getByRole("switch", { name: "Kitchen ceiling light", exact: true })
    await switched(page, "Kitchen ceiling light", false)
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
    await expect.poll(refusedByDevice).toBe("Failure")
    await kitchen.click()
    const failed = `the device failed: service:kitchen-light@sim failed (simulated "fail": "error")`
    await says(page.getByRole("alert"), failed)
    await switched(page, "Kitchen ceiling light", false)
    // The picker too; it keeps showing the colour the light reports (hue 40, saturation 0.35), not the one picked.
    const picker = colourPicker(page, "Kitchen ceiling light")
    await picker.fill("#ff0000")
    await says(page.getByRole("alert").nth(1), failed)
    expect(await page.getByRole("alert").allTextContents()).toEqual([failed, failed])
    await expect.poll(() => picker.inputValue()).toBe("#ffe1a6")
    await screenshot(page, "home-switch-problem-desktop")
  }, 60_000)

  it("shows a device that joins and drops one that leaves (home-file edits), without a reload", async () => {
    const { page } = tab()
    const porch = page.getByRole("list", { name: "No room" }).getByRole("heading", { name: "service:porch-light@sim" })
    await showsValue(page, "getter:hall-light-on@sim", "On")
    expect(await porch.count()).toBe(0)
    // The file as the tests before left it, with one light more, then without it.
    const before: unknown = JSON.parse(readFileSync(rig().homeFile, "utf8"))
    const home = before as { readonly services: ReadonlyArray<unknown> }
    // Without a name: shown by its id; in no room: last.
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
  }, 60_000)

  it("shows a device's name isolated (<bdi>) and without bidi controls, so that U+202E cannot turn it around", async () => {
    const { page } = tab()
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
  }, 60_000)
})
