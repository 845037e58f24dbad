import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { fitsTheScreen, screenshot, seriousViolations, signIn, tabOfFile, viewports } from "../support/browser.ts"
import { dashboardOnDemoHomeOfFile, owner } from "../support/dashboardOnDemoHome.ts"
import { send } from "../support/httpRequest.ts"
import { parseScrape, sample } from "../support/prometheusText.ts"
import { errorsFromNow, show } from "../support/signedInPage.ts"

/**
 * The dashboard's Migration page in a real Chromium, against a gateway serving the built dashboard
 * (`npm run build` first) on the demo home: a vocabulary A request translated into B as it is typed, both sent to the gateway
 * and their answers compared, and the tokens that still call A, read from `/metrics`.
 */

const rig = dashboardOnDemoHomeOfFile()

/** The tab the tests share, at desktop width unless a test narrows it. */
const tab = tabOfFile()

/** A new API token of the owner's, by HTTP: its id and secret. */
const newToken = async (body: unknown) => {
  const created = await send(`${rig().gateway.baseUrl}/api/v1/tokens`, {
    method: "POST",
    headers: { authorization: `Bearer ${rig().ownerToken}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  expect(created.status).toBe(201)
  return JSON.parse(created.body) as { readonly id: number; readonly token: string }
}

const migrationUrl = () => `${rig().gateway.baseUrl}/migration`

/**
 * The Migration page, loaded afresh in the file's tab, signed in with `session` (the owner's first unless
 * given), and the Content-Security-Policy refusals its console shows from then on.
 */
const onMigration = async (session = rig().ownerToken) => {
  const { page, refused } = tab()
  const refusedOfTest = errorsFromNow(refused)
  await show(page, migrationUrl(), session)
  await page.getByRole("heading", { level: 1, name: "Migration" }).waitFor()
  return { page, refused: refusedOfTest }
}

/** A request typed in vocabulary A. */
const typed = async (page: Page, operation: string, body: unknown) => {
  await page.getByLabel("Vocabulary A operation").selectOption(operation)
  await page.getByLabel("Its JSON body, in vocabulary A").fill(body === undefined ? "" : JSON.stringify(body))
}

const shown = (page: Page, id: string) => page.locator(`[id="${id}"]`).textContent()

const pretty = (json: unknown) => JSON.stringify(json, null, 2)

/** Whether the bedside lamp is on, read over the API in vocabulary B. */
const lampState = async () => {
  const read = await send(`${rig().gateway.baseUrl}/api/v1/channels/get`, {
    method: "POST",
    headers: { authorization: `Bearer ${rig().ownerToken}`, "content-type": "application/json" },
    body: `{"id": "getter:bedroom-light-on@sim"}`
  })
  return (JSON.parse(read.body) as Readonly<Record<string, { readonly OnOff: string }>>)["getter:bedroom-light-on@sim"]?.OnOff
}

const lampOn = { set: [{ id: { Exactly: "setter:bedroom-light-on@sim" } }], value: { OnOff: "On" } }

describe("the dashboard's Migration page", () => {
  it("shows an A read's B equivalent as it is typed, says a body A does not read in words, and sends the read B's way alone", async () => {
    const { page, refused } = await onMigration()
    await typed(page, "get_channel_value", [{ id: { Exactly: "getter:hall-light-on@sim" } }])
    await expect.poll(() => shown(page, "b-operation")).toBe("fetch_values")
    expect(await shown(page, "b-route")).toBe("GET /api/v1/channels/get")
    expect(await shown(page, "b-body")).toBe(pretty([{ id: "getter:hall-light-on@sim" }]))
    await page.getByText("(a browser sends it as PUT)").waitFor()
    // The hints fit a read: an empty body reads everything, and this one is not sent in A.
    expect(await page.locator("#a-body-hint").textContent()).toMatch(/^Empty: no body, which a read takes as everything\./)
    expect(await page.getByText(/^Not sent in vocabulary A from here: a browser cannot send it/).count()).toBe(1)

    // A's read takes its selectors in a GET's body, which a browser cannot send: B's is sent alone.
    await page.getByRole("button", { name: "Send both" }).click()
    await expect.poll(() => shown(page, "b-answer")).toBe(pretty({ "getter:hall-light-on@sim": { OnOff: "On" } }))
    expect(await page.getByRole("region", { name: "Vocabulary A's answer" }).textContent()).toContain("Not sent: a browser cannot send it")
    expect(await shown(page, "agreement")).toBe("Nothing to compare: not both requests were answered.")

    // B's selector in an A body: the translation's problem, at its place, and nothing to send.
    await typed(page, "get_channel_value", [{ id: "getter:hall-light-on@sim" }])
    await expect.poll(() => shown(page, "translation-problem"))
      .toBe(`body[0].id: expected {"Exactly": …}, {"Empty": []} or {"Conflict": []}, got "getter:hall-light-on@sim"`)
    expect(await page.getByLabel("Its JSON body, in vocabulary A").getAttribute("aria-invalid")).toBe("true")
    expect(await page.getByRole("button", { name: "Send both" }).isDisabled()).toBe(true)
    await page.getByLabel("Its JSON body, in vocabulary A").fill("[{")
    await expect.poll(() => shown(page, "translation-problem")).toMatch(/^body: invalid JSON: /)
    expect(refused()).toEqual([])
  }, 60_000)

  it("sends an A write and its B equivalent to the gateway, shows both answers, and that they say the same", async () => {
    const { page, refused } = await onMigration()
    expect(await lampState()).toBe("Off")
    await typed(page, "put_channel_value", lampOn)
    await expect.poll(() => shown(page, "b-operation")).toBe("send_values")
    // A write's hints: its body is required, and where it is sent.
    expect(await page.locator("#a-body-hint").textContent()).toMatch(/^Required: what to write or tag, as JSON\./)
    expect(await page.getByText("Sent in vocabulary A as POST /api/v1/channels/value").count()).toBe(1)
    expect(await shown(page, "b-route")).toBe("PUT /api/v1/channels/set")
    expect(await shown(page, "b-body")).toBe(pretty([{ select: [{ id: "setter:bedroom-light-on@sim" }], value: { OnOff: "On" } }]))
    await page.getByRole("button", { name: "Send both" }).click()
    await expect.poll(() => shown(page, "agreement")).toBe("A's answer, said in vocabulary B, is B's answer.")
    expect(await shown(page, "a-answer-status")).toBe("200 OK")
    expect(await shown(page, "a-answer")).toBe(pretty([["setter:bedroom-light-on@sim", { Ok: null }]]))
    expect(await shown(page, "b-answer-status")).toBe("200 OK")
    expect(await shown(page, "b-answer")).toBe(pretty({ "setter:bedroom-light-on@sim": null }))
    // Writes really write.
    expect(await lampState()).toBe("On")

    // A listing's answer says less than B's: why it is not compared, in the translation's words.
    await typed(page, "get_nodes", undefined)
    await page.getByRole("button", { name: "Send both" }).click()
    await expect.poll(() => shown(page, "agreement")).toBe(
      "Not compared: B's services carry an adapter and properties, which A's nodes do not say: send the B request to read them."
    )
    expect(await shown(page, "a-answer-status")).toBe("200 OK")
    expect(await shown(page, "b-answer-status")).toBe("200 OK")
    expect(refused()).toEqual([])
  }, 60_000)

  it("lists the tokens that still call A, with their calls, after a few A calls by other tokens", async () => {
    const oldApp = await newToken({ label: "old app" })
    // Another user's token: the owner's token listing does not have it.
    const bobs = await rig().gateway.createToken({ user: "bob" })
    const callA = async (token: string, calls: number) => {
      for (let call = 0; call < calls; call++) {
        const nodes = await send(`${rig().gateway.baseUrl}/api/v1/nodes`, { headers: { authorization: `Bearer ${token}` } })
        expect(nodes.status).toBe(200)
      }
    }
    await callA(oldApp.token, 3)
    await callA(bobs.token, 2)
    const { page, refused } = await onMigration()
    const usage = page.getByRole("table", { name: "Vocabulary A calls by token, most first" })
    // The page's own A requests, twice, go with its comparison token: counted for no token.
    await typed(page, "put_channel_value", lampOn)
    const writesInA = async () => {
      const scrape = await send(`${rig().gateway.baseUrl}/metrics`, { headers: { authorization: `Bearer ${rig().ownerToken}` } })
      return sample(parseScrape(scrape.body), "gateway_http_requests_total", { vocabulary: "a", operation: "put_channel_value", status: "200" })
    }
    const comparisonTokens = async () =>
      (JSON.parse((await send(`${rig().gateway.baseUrl}/api/v1/tokens`, { headers: { authorization: `Bearer ${rig().ownerToken}` } })).body) as
        ReadonlyArray<{ readonly kind: string; readonly label: string; readonly status: string }>).filter((token) => token.kind === "comparison")
    const madeBefore = (await comparisonTokens()).length
    const before = await writesInA()
    for (let comparison = 1; comparison <= 2; comparison++) {
      await page.getByRole("button", { name: "Send both" }).click()
      await expect.poll(writesInA).toBe(before + comparison)
    }
    await expect.poll(() => shown(page, "agreement")).toBe("A's answer, said in vocabulary B, is B's answer.")
    await page.getByRole("button", { name: "Refresh" }).click()
    const rowOf = (token: number) => usage.getByRole("row").filter({ has: page.getByRole("rowheader", { name: String(token), exact: true }) })
    await expect.poll(() => rowOf(oldApp.id).getByRole("cell").allTextContents()).toEqual(["old app: an API token", "3"])
    const rowsWith = (text: string) => usage.getByRole("row").filter({ hasText: text }).getByRole("cell").allTextContents()
    expect(await rowsWith("another user's token")).toEqual(["another user's token", "2"])
    expect(await rowsWith("(this one)")).toEqual([])
    expect(await rowsWith("comparison")).toEqual([])
    // One comparison token made for both, labelled as the page's: the owner's only live one.
    const made = await comparisonTokens()
    expect(made.length).toBe(madeBefore + 1)
    expect(made.filter((token) => token.status === "active").map((token) => token.label)).toEqual(["the Migration page's comparisons"])
    expect(await page.evaluate<string>("JSON.parse(sessionStorage.getItem('gateway.comparison')).secret")).toMatch(/^gw_/)
    // Most calls first (the sessions of the tests before are listed too).
    const calls = (await usage.locator("tbody td:last-child").allTextContents()).map(Number)
    expect(calls).toEqual([...calls].sort((x, y) => y - x))
    await screenshot(page, "migration-desktop")
    expect(refused()).toEqual([])
  }, 60_000)

  it("sends a tab without a session to sign in, and back to the Migration page once signed in; never elsewhere", async () => {
    const { page, errors } = tab()
    const errorsOfTest = errorsFromNow(errors)
    await show(page, migrationUrl())
    await page.getByRole("heading", { name: "Sign in" }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/")
    await page.getByLabel("Username").fill(owner.username)
    await page.getByLabel("Password").fill(owner.password)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("heading", { level: 1, name: "Migration" }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/migration")
    expect(errorsOfTest()).toEqual([])
    // A return to anywhere but the dashboard's own pages is the home.
    await show(page, `${rig().gateway.baseUrl}/?return=${encodeURIComponent("https://example.org/")}`)
    await signIn(page, owner)
    expect(new URL(page.url()).origin).toBe(rig().gateway.baseUrl)
  }, 60_000)

  it("says in words that a token without the metrics right cannot list who calls A", async () => {
    // A session whose token has no `metrics` right: an API token reaching one getter, put in the tab. It has
    // the `tokens` right: without it the listing is refused too, and the page shows whichever refusal came last.
    const reader = await newToken({ label: "reader", scope: { channels: [{ id: "getter:hall-light-on@sim" }], rights: ["read", "tokens"] } })
    const { page } = await onMigration(reader.token)
    await expect.poll(() => page.getByRole("alert").textContent())
      .toBe(`The calls cannot be shown: this token does not grant the "metrics" right.`)
  }, 60_000)

  it("is readable at phone width, the answers stacked, with no serious or critical accessibility violation", async () => {
    const { page } = tab()
    await page.setViewportSize(viewports.phone)
    try {
      await onMigration()
      await typed(page, "put_channel_value", lampOn)
      await page.getByRole("button", { name: "Send both" }).click()
      await expect.poll(() => shown(page, "agreement")).toBe("A's answer, said in vocabulary B, is B's answer.")
      await page.getByRole("button", { name: "Refresh" }).click()
      await page.getByRole("table", { name: "Vocabulary A calls by token, most first" }).waitFor()
      const [a, b] = await Promise.all(["a-answer", "b-answer"].map((id) => page.locator(`[id="${id}"]`).boundingBox()))
      expect(b?.y).toBeGreaterThan((a?.y ?? Infinity) + (a?.height ?? 0) - 1)
      expect(await seriousViolations(page)).toEqual([])
      expect(await fitsTheScreen(page)).toBe(true)
      await screenshot(page, "migration-phone")
    } finally {
      await page.setViewportSize(viewports.desktop)
    }
  }, 60_000)
})
