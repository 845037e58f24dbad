import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshDataDir } from "../support/gatewayTestLayer.ts"
import { send } from "../support/httpRequest.ts"
import { fitsTheScreen, screenshot, seriousViolations, sharedChromium, tabOfFile, viewports } from "../support/browser.ts"
import { errorsFromNow, show } from "../support/signedInPage.ts"
import { type RunningGateway, spawnGateway } from "../support/spawnGateway.ts"

/**
 * The dashboard's first run, sign-in and sign-out in a real Chromium, against the built gateway
 * (`npm run build` first) on the demo home, started with `--no-default-admin` as a new owner would.
 */

let running: { readonly gateway: RunningGateway } | undefined

beforeAll(async () => {
  // Chromium first: where it is missing, sharedChromium throws before the gateway starts.
  const [, gateway] = await Promise.all([
    sharedChromium(),
    spawnGateway(["serve", "--port", "0", "--no-clock", "--no-default-admin", "--data", freshDataDir()])
  ])
  running = { gateway }
}, 60_000)

afterAll(() => running?.gateway.stop("SIGTERM"))

const started = () => {
  if (running === undefined) throw new Error("the gateway and Chromium did not start")
  return running
}

/** The tab the tests share, at desktop width unless a test narrows it. */
const tab = tabOfFile()

/** The dashboard's first page, loaded afresh in the file's tab as a new tab would show it (no session). */
const onFirstPage = async () => {
  const { page, errors, refused } = tab()
  const [errorsOfTest, refusedOfTest] = [errorsFromNow(errors), errorsFromNow(refused)]
  await show(page, started().gateway.baseUrl)
  return { page, errors: errorsOfTest, refused: refusedOfTest }
}

const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name })

const owner = { username: "owner", email: "owner@example.org", password: "a long enough password" }

describe("the dashboard's first run, sign-in and sign-out", () => {
  it("loads the first-run page with no error in the console: its icon is there too", async () => {
    const { page, errors } = await onFirstPage()
    await heading(page, "Welcome to your home gateway").waitFor()
    // The headless shell shows no tab, so it asks for no icon: the page loads the one it names as an image,
    // as a browser's tab does (a missing icon fails to decode, and is a console error). Evaluated in the page.
    const icon = await page.evaluate<string>(`(async () => {
      const icon = new Image()
      icon.src = document.querySelector('link[rel="icon"]').href
      await icon.decode()
      return new URL(icon.src).pathname
    })()`)
    expect(icon).toBe("/favicon.ico")
    expect(errors()).toEqual([])
  })

  it("creates the first administrator, shows the home, signs out (the session token revoked), and signs in again", async () => {
    const { page, refused } = await onFirstPage()
    await heading(page, "Welcome to your home gateway").waitFor()
    await screenshot(page, "setup-desktop")
    await page.getByLabel("Username").fill(owner.username)
    await page.getByLabel("Email").fill(owner.email)
    await page.getByLabel("Password").fill("short")
    await page.getByRole("button", { name: "Create and sign in" }).click()
    // The gateway's own words, announced.
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("body.password: 8 to 1024 characters")

    await page.getByLabel("Password").fill(owner.password)
    await page.getByRole("button", { name: "Create and sign in" }).click()
    await heading(page, "Your home").waitFor()
    await page.getByRole("article", { name: "Bedside lamp" }).waitFor()
    await screenshot(page, "home-desktop")

    // The tab keeps its session across a reload, and only this tab has it: another of the same browser has none.
    const token = await page.evaluate("sessionStorage.getItem('gateway.session')")
    expect(typeof token).toBe("string")
    await page.reload()
    await heading(page, "Your home").waitFor()
    const other = await page.context().newPage()
    await other.goto(started().gateway.baseUrl)
    await other.getByRole("heading", { name: "Sign in" }).waitFor()
    await other.close()

    await page.getByRole("button", { name: "Sign out" }).click()
    await expect.poll(() => page.getByRole("status").textContent()).toBe("You are signed out.")
    const afterLogout = await send(`${started().gateway.baseUrl}/api/v1/services`, { headers: { authorization: `Bearer ${String(token)}` } })
    expect(afterLogout.status).toBe(401)

    await page.getByLabel("Username").fill(owner.username)
    await page.getByLabel("Password").fill("not the password")
    await page.getByRole("button", { name: "Sign in" }).click()
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("wrong username or password")
    await page.getByLabel("Password").fill(owner.password)
    await page.getByRole("button", { name: "Sign in" }).click()
    await heading(page, "Your home").waitFor()

    // The other pages share the tab's session and sign out to the sign-in form; without a session, a page sends the tab there.
    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Tokens" }).click()
    await heading(page, "Tokens").waitFor()
    const tokensToken = await page.evaluate("sessionStorage.getItem('gateway.session')")
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByRole("heading", { name: "Sign in" }).waitFor()
    await expect.poll(() => page.getByRole("status").textContent()).toBe("You are signed out.")
    expect(new URL(page.url()).pathname).toBe("/")
    expect((await send(`${started().gateway.baseUrl}/api/v1/services`, { headers: { authorization: `Bearer ${String(tokensToken)}` } })).status).toBe(401)
    await page.goto(`${started().gateway.baseUrl}/migration`)
    await page.getByRole("heading", { name: "Sign in" }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/")
    expect(refused()).toEqual([])
  }, 60_000)

  it("is readable at phone width and has no serious or critical accessibility violation on its pages", async () => {
    const { page } = tab()
    await page.setViewportSize(viewports.phone)
    try {
      await show(page, started().gateway.baseUrl)
      await page.getByRole("heading", { name: "Sign in" }).waitFor()
      expect(await seriousViolations(page)).toEqual([])
      expect(await fitsTheScreen(page)).toBe(true)
      await screenshot(page, "login-phone")
      await page.getByLabel("Username").fill(owner.username)
      await page.getByLabel("Password").fill(owner.password)
      await page.getByRole("button", { name: "Sign in" }).click()
      await heading(page, "Your home").waitFor()
      await page.getByRole("article", { name: "Bedside lamp" }).waitFor()
      expect(await seriousViolations(page)).toEqual([])
      expect(await fitsTheScreen(page)).toBe(true)
      await screenshot(page, "home-phone")
    } finally {
      await page.setViewportSize(viewports.desktop)
    }
  }, 60_000)

  it("says that signing out failed when the gateway did not revoke the session, keeps it usable, and signs out on a try again", async () => {
    const { page } = await onFirstPage()
    await page.getByRole("heading", { name: "Sign in" }).waitFor()
    await page.getByLabel("Username").fill(owner.username)
    await page.getByLabel("Password").fill(owner.password)
    await page.getByRole("button", { name: "Sign in" }).click()
    await heading(page, "Your home").waitFor()
    const token = String(await page.evaluate("sessionStorage.getItem('gateway.session')"))
    const sessionAnswers = async () =>
      (await send(`${started().gateway.baseUrl}/api/v1/services`, { headers: { authorization: `Bearer ${token}` } })).status
    const logout = `${started().gateway.baseUrl}/users/logout`

    // A proxy in front of the gateway that fails, then a connection that does not get through.
    await page.route(logout, (route) => route.fulfill({ status: 502, contentType: "text/html", body: "<h1>Bad Gateway</h1>" }))
    await page.getByRole("button", { name: "Sign out" }).click()
    await expect.poll(() => page.getByRole("alert").textContent())
      .toBe("Signing out failed (the gateway answered 502 Bad Gateway): you are still signed in.")
    await page.unroute(logout)
    await page.route(logout, (route) => route.abort("connectionrefused"))
    await page.getByRole("button", { name: "Try signing out again" }).click()
    await expect.poll(() => page.getByRole("alert").textContent())
      .toBe("Signing out failed (the gateway cannot be reached): you are still signed in.")

    // Still signed in: the page, the tab's session and the token.
    await heading(page, "Your home").waitFor()
    expect(await page.evaluate("sessionStorage.getItem('gateway.session')")).toBe(token)
    expect(await sessionAnswers()).toBe(200)
    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Tokens" }).click()
    await heading(page, "Tokens").waitFor()

    await page.unroute(logout)
    await page.getByRole("button", { name: "Sign out" }).click()
    await expect.poll(() => page.getByRole("status").textContent()).toBe("You are signed out.")
    expect(await sessionAnswers()).toBe(401)

    // A session whose token was revoked elsewhere: its sign-out answers 401, and the page is signed out.
    await page.getByLabel("Username").fill(owner.username)
    await page.getByLabel("Password").fill(owner.password)
    await page.getByRole("button", { name: "Sign in" }).click()
    // Signed out on the Tokens page, signed in back there.
    await heading(page, "Tokens").waitFor()
    expect(new URL(page.url()).pathname).toBe("/tokens")
    const second = String(await page.evaluate("sessionStorage.getItem('gateway.session')"))
    expect((await send(logout, { method: "POST", headers: { authorization: `Bearer ${second}` } })).status).toBe(204)
    await page.getByRole("button", { name: "Sign out" }).click()
    await expect.poll(() => page.getByRole("status").textContent()).toBe("You are signed out.")
  }, 60_000)
})
