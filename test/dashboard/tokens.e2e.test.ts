import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { fitsTheScreen, screenshot, seriousViolations, tabOfFile, viewports } from "../support/browser.ts"
import { dashboardOnDemoHomeOfFile, newSession } from "../support/dashboardOnDemoHome.ts"
import { send } from "../support/httpRequest.ts"
import { insertTokens } from "../support/manyTokens.ts"
import { errorsFromNow, show } from "../support/signedInPage.ts"

/**
 * The dashboard's Tokens page in a real Chromium, against a gateway serving the built dashboard (`npm run build` first) on
 * the demo home (issue 39, item 6): the list first, each token with what it reaches by name, its rights and
 * its creator, sessions named as sessions; revoking confirmed, saying what else goes; the form after the
 * list; the list a page at a time.
 */

const rig = dashboardOnDemoHomeOfFile()

/** The tab the tests share, at desktop width unless a test narrows it. */
const tab = tabOfFile()

/**
 * The tab's session: the owner's, of its own (the owner's first, made at setup, is listed as another),
 * put in the tab as each test loads the page, rather than by a load of the home before the tests (a page
 * load costs Chromium more than most tests' own work, and none of these tests reads the home).
 */
let tabSession: string | undefined
beforeAll(async () => {
  tabSession = await newSession(rig().gateway.baseUrl)
})

/** A new API token made over HTTP with `creator`'s token: its id and secret. */
const made = async (creator: string, body: unknown) => {
  const created = await send(`${rig().gateway.baseUrl}/api/v1/tokens`, {
    method: "POST",
    headers: { authorization: `Bearer ${creator}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  expect(created.status).toBe(201)
  return JSON.parse(created.body) as { readonly id: number; readonly token: string }
}

/** The status of a read made with `token`: 200 while it works, 401 once revoked. */
const readWith = async (token: string) =>
  (await send(`${rig().gateway.baseUrl}/api/v1/services`, { headers: { authorization: `Bearer ${token}` } })).status

/** A colour `#rrggbb` as a computed style writes it. */
const rgbOf = (hex: string) => `rgb(${[1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)).join(", ")})`

const tokensUrl = () => `${rig().gateway.baseUrl}/tokens`

/** The Tokens page, loaded afresh in the file's tab, and the errors its console shows from then on. */
const onTokens = async () => {
  const { page, errors } = tab()
  const errorsOfTest = errorsFromNow(errors)
  await show(page, tokensUrl(), tabSession)
  await page.getByRole("heading", { level: 1, name: "Tokens" }).waitFor()
  return { page, errors: errorsOfTest }
}

const entry = (page: Page, name: string) => page.getByRole("list", { name: "Tokens" }).getByRole("listitem", { name, exact: true })

const facts = async (page: Page, name: string) => {
  const item = entry(page, name)
  await item.waitFor()
  const [terms, details] = await Promise.all([item.locator("dt").allTextContents(), item.locator("dd").allTextContents()])
  return Object.fromEntries(terms.map((term, i) => [term, details[i]]))
}

describe("the dashboard's Tokens page", () => {
  it("lists each token with what it reaches by name, its rights and creator, sessions as sessions, before the form", async () => {
    const app = await made(rig().ownerToken, {
      label: "phone app",
      scope: { channels: [{ id: "getter:hall-light-on@sim" }, { service: "service:front-door-lock@sim" }], rights: ["read", "tokens"] }
    })
    await made(app.token, { label: "phone widget", scope: { channels: { id: "getter:hall-light-on@sim" }, rights: ["read"] } })
    const { page, errors } = await onTokens()
    expect(await facts(page, "phone app")).toEqual({
      Reaches: "Hall light: OnOff reading; all channels of Front door lock",
      May: "read, tokens",
      "Made by": expect.stringMatching(/^Session signed in /)
    })
    expect(await facts(page, "phone widget")).toEqual({ Reaches: "Hall light: OnOff reading", May: "read", "Made by": "phone app" })
    // This tab's session, and the owner's first (made at setup), named by when it signed in.
    expect(await facts(page, "This browser")).toEqual({ Reaches: "the whole home", May: "every right", "Made by": "a sign-in" })
    expect(await page.getByRole("heading", { level: 3, name: /^Session signed in / }).count()).toBeGreaterThan(0)
    // The list, then the form.
    const [list, form] = await Promise.all([
      page.getByRole("list", { name: "Tokens" }).boundingBox(),
      page.getByRole("form", { name: "A new token" }).boundingBox()
    ])
    expect(form?.y).toBeGreaterThan((list?.y ?? Infinity) + (list?.height ?? 0) - 1)
    // This browser's own session is ended by signing out, not revoked from the list.
    expect(await entry(page, "This browser").getByRole("button").count()).toBe(0)
    await screenshot(page, "tokens-desktop")
    expect(errors()).toEqual([])
  }, 60_000)

  it("asks before revoking, naming the tokens that go with it; keeping it keeps them, revoking revokes them all", async () => {
    const parent = await made(rig().ownerToken, { label: "hub", scope: { channels: { service: "service:hall-light@sim" }, rights: ["read", "tokens"] } })
    const child = await made(parent.token, { label: "hub's helper", scope: { channels: { service: "service:hall-light@sim" }, rights: ["read"] } })
    const { page, errors } = await onTokens()
    const revoke = page.getByRole("button", { name: "Revoke hub", exact: true })
    // The list comes in after the heading: its styles are read once it is drawn.
    await revoke.waitFor()
    // It looks destructive: the colour of problems, unlike the other buttons.
    const background = (selector: string) => page.evaluate<string>(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).backgroundColor`)
    const problem = await page.evaluate<string>("getComputedStyle(document.documentElement).getPropertyValue('--problem').trim()")
    expect(await background(`button[aria-label="Revoke hub"]`)).toBe(rgbOf(problem))
    expect(await background(`form button[type="submit"]`)).not.toBe(rgbOf(problem))
    await revoke.click()
    const dialog = page.getByRole("dialog", { name: "Revoke hub?" })
    await expect.poll(() => dialog.getByRole("list", { name: "Also revoked" }).getByRole("listitem").allTextContents()).toEqual(["hub's helper"])
    await dialog.getByRole("button", { name: "Keep it" }).click()
    await dialog.waitFor({ state: "detached" })
    expect([await readWith(parent.token), await readWith(child.token)]).toEqual([200, 200])

    await revoke.click()
    await dialog.getByRole("button", { name: "Revoke 2 tokens" }).click()
    await expect.poll(async () => [await readWith(parent.token), await readWith(child.token)]).toEqual([401, 401])
    await entry(page, "hub").getByText("API token, revoked").waitFor()
    await entry(page, "hub's helper").getByText("API token, revoked").waitFor()
    expect(errors()).toEqual([])
  }, 60_000)

  it("creates a token that reaches one channel chosen by name, shows it once, made by this browser", async () => {
    const { page, errors } = await onTokens()
    await page.getByLabel("What it is for").fill("hall only")
    await page.getByRole("checkbox", { name: "Hall light: OnOff reading" }).check()
    await page.getByRole("button", { name: "Create the token" }).click()
    const shown = page.getByLabel("The new token")
    await shown.waitFor()
    const secret = (await shown.textContent()) ?? ""
    const listed = await send(`${rig().gateway.baseUrl}/api/v1/channels/getters`, { headers: { authorization: `Bearer ${secret}` } })
    expect((JSON.parse(listed.body) as ReadonlyArray<{ readonly id: string }>).map((c) => c.id)).toEqual(["getter:hall-light-on@sim"])
    expect(await facts(page, "hall only")).toEqual({ Reaches: "Hall light: OnOff reading", May: "read", "Made by": "This browser" })
    // The page is in the address: a reload stays on it.
    await page.reload()
    await page.getByRole("heading", { level: 1, name: "Tokens" }).waitFor()
    await entry(page, "hall only").waitFor()
    expect(errors()).toEqual([])
  }, 60_000)

  it("creates a token that reaches a whole device, until a chosen day, and refuses one that would outlive the session", async () => {
    const { page, errors } = await onTokens()
    const dayIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)
    await page.getByLabel("What it is for").fill("front door")
    await page.getByRole("checkbox", { name: "Front door lock, all of it" }).check()
    // Its channels are in the token's reach with it.
    await page.getByRole("checkbox", { name: "Front door lock: DoorLocked control", checked: true }).waitFor()
    await page.getByLabel("When it stops working (optional)").fill(dayIn(60))
    await page.getByRole("button", { name: "Create the token" }).click()
    // The session lasts 30 days: a token made with it cannot last 60.
    await page.getByRole("alert").filter({ hasText: /expire/ }).waitFor()

    await page.getByLabel("When it stops working (optional)").fill(dayIn(7))
    await page.getByRole("button", { name: "Create the token" }).click()
    const shown = page.getByLabel("The new token")
    await shown.waitFor()
    const authorization = `Bearer ${(await shown.textContent()) ?? ""}`
    const ids = async (path: string) =>
      (JSON.parse((await send(`${rig().gateway.baseUrl}${path}`, { headers: { authorization } })).body) as ReadonlyArray<{ readonly id: string }>).map((c) => c.id)
    expect(await ids("/api/v1/channels/getters")).toEqual(["getter:front-door-lock@sim"])
    expect(await ids("/api/v1/channels/setters")).toEqual(["setter:front-door-lock@sim"])
    await entry(page, "front door").filter({ hasText: `expires ${new Date(`${dayIn(7)}T12:00:00`).toLocaleDateString("en-US")}` }).waitFor()
    expect((await facts(page, "front door"))["Reaches"]).toBe("all channels of Front door lock")
    // The refusal (a 403) is the one error the console shows.
    expect(errors()).toEqual([expect.stringMatching(/status of 403/)])
  }, 60_000)

  it("is readable at phone width, the confirmation too, with no serious or critical accessibility violation", async () => {
    await made(rig().ownerToken, { label: "tablet" })
    await tab().page.setViewportSize(viewports.phone)
    try {
      const { page, errors } = await onTokens()
      await page.getByRole("checkbox", { name: "Hall light: OnOff reading" }).waitFor()
      expect(await seriousViolations(page)).toEqual([])
      expect(await fitsTheScreen(page)).toBe(true)
      // A choice a thumb can hit: a row of at least 44 px.
      expect((await page.getByRole("checkbox", { name: "Hall light: OnOff reading" }).locator("..").boundingBox())?.height).toBeGreaterThanOrEqual(44)
      await screenshot(page, "tokens-phone")
      await page.getByRole("button", { name: "Revoke tablet", exact: true }).click()
      await page.getByRole("dialog", { name: "Revoke tablet?" }).getByRole("button", { name: "Revoke it" }).waitFor()
      expect(await seriousViolations(page)).toEqual([])
      expect(await fitsTheScreen(page)).toBe(true)
      await page.keyboard.press("Escape")
      await page.getByRole("dialog").waitFor({ state: "detached" })
      expect(errors()).toEqual([])
    } finally {
      await tab().page.setViewportSize(viewports.desktop)
    }
  }, 60_000)

  // Last: the owner keeps 45 more tokens (expired, so none counts as live) for the tests that follow, if any.
  it("shows the list a page at a time, and every token of the owner once paged through", async () => {
    await insertTokens(rig().dataDir, "owner", 45, { label: (index) => `bulk ${index}`, expiresAt: Date.now() - 60_000 })
    const { page, errors } = await onTokens()
    const items = page.getByRole("list", { name: "Tokens" }).getByRole("listitem")
    await expect.poll(() => items.count()).toBe(20)
    const more = page.getByRole("button", { name: "Show more tokens" })
    while (await more.isVisible()) {
      const shown = await items.count()
      await more.click()
      await expect.poll(() => items.count()).toBeGreaterThan(shown)
    }
    const bulk = items.filter({ hasText: /bulk \d+/ })
    expect(await bulk.count()).toBe(45)
    await entry(page, "bulk 44").waitFor()
    expect(errors()).toEqual([])
  }, 60_000)
})
