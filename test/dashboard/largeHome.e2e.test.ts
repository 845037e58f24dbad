import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { homeFileWithRoomsOf } from "../../bench/support/GeneratedHome.ts"
import { dashboardOnDemoHomeOfFile, ownersTabOfFile } from "../support/dashboardOnDemoHome.ts"

/**
 * The dashboard's home on a large home (issue 39): 100 devices of 6 getters and 4 setters each
 * (bench/support/GeneratedHome.ts), 600 getters, every one of whose values must be on its card. The
 * figures for 1,000 devices are the bench's (`npm run bench -- "dashboard large home"`).
 */

const home = homeFileWithRoomsOf(100)
const rig = dashboardOnDemoHomeOfFile(home)
const tab = ownersTabOfFile(rig)

/** What the generated home's getters hold, as a card shows each: in words, or as a colour picker's `#rrggbb`. */
const shown: Readonly<Record<string, ReadonlyArray<string>>> = {
  OnOff: ["On"],
  ActualTemperature: ["20 °C"],
  OpenClosed: ["Closed"],
  Ready: ["Yes"],
  LightColor: ["hue 40°, saturation 35 %, brightness 80 %", "#ffe1a6"]
}

/** Every value on the page, by getter: an input's value (a colour picker), else the element's text. */
const valuesOnPage = `[...document.querySelectorAll('[id^="value-"]')]
  .map((element) => [element.id.slice("value-".length), element instanceof HTMLInputElement ? element.value : element.textContent])`

const readValues = (page: Page) => page.evaluate<ReadonlyArray<readonly [string, string]>>(valuesOnPage)

/** How many values have come (none is a dash), counted in the page: a poll moves a number, not 600 values. */
const valuesCome = (page: Page) => page.evaluate<number>(`${valuesOnPage}.filter(([, text]) => text !== "—").length`)

describe("the dashboard's home on a home of 600 getters", () => {
  it("shows every getter's value on its device's card, grouped in the home's rooms", async () => {
    const { page, errors } = tab()
    const getters = home.services.flatMap((service) => service.getters)
    const expected = new Map(getters.map((getter) => [getter.id, shown[getter.kind] ?? []]))
    // Once every value has come: none is a dash.
    await expect.poll(() => valuesCome(page), { timeout: 60_000 }).toBe(getters.length)
    const values = await readValues(page)
    expect(new Set(values.map(([id]) => id))).toEqual(new Set(expected.keys()))
    for (const [id, text] of values) expect(expected.get(id), id).toContain(text)
    const rooms = await page.getByRole("heading", { level: 2 }).allTextContents()
    expect(rooms).toEqual(["Bathroom", "Bedroom", "Garage", "Garden", "Hall", "Kitchen", "Living room", "Office"])
    expect(await page.getByRole("article").count()).toBe(100)
    expect(errors).toEqual([])
  }, 120_000)
})
