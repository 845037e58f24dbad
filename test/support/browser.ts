import { mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll } from "vitest"
import { launchChromium as launchInstalledChromium } from "../../bench/support/Chromium.ts"
import { chromium, requireProgram } from "./requiredProgram.ts"

let workerChromium: Promise<Browser> | undefined

/**
 * The test worker's headless Chromium for the dashboard's tests: the bench's (bench/support/Chromium.ts),
 * launched by the first browser test file the worker runs and kept for the next ones: a launch and its
 * close cost 2.6 s of CPU (measured), a tab in a context of its own 0.7 s. A file opens its tabs in
 * contexts of their own and closes them; it never closes the browser, which Playwright stops when the
 * worker exits (its exit and signal handlers). One that disconnects is launched again. Where Chromium is
 * not installed this throws at once, before it returns a promise: a test that calls it first in a
 * `Promise.all` starts nothing else.
 */
export const sharedChromium = (): Promise<Browser> => {
  requireProgram(chromium)
  workerChromium ??= launchInstalledChromium().then((browser) =>
    browser.on("disconnected", () => {
      workerChromium = undefined
    })
  )
  return workerChromium
}

const root = fileURLToPath(new URL("../../", import.meta.url))

/**
 * Whether this run takes the dashboard's screenshots: `npm run docs:screenshots` asks for them, `npm test`
 * does not (a full page costs Chromium half a second of CPU to draw and encode, measured).
 */
const takesScreenshots = process.env["GATEWAY_TEST_SCREENSHOTS"] === "1"

/**
 * The page as it is now, whole, as `test-artifacts/dashboard/NAME.png` (an ignored folder, from which
 * `npm run docs:screenshots` copies the ones docs/dashboard.md shows), when the run takes screenshots.
 */
export const screenshot = async (page: Page, name: string): Promise<void> => {
  if (!takesScreenshots) return
  const dir = join(root, "test-artifacts", "dashboard")
  mkdirSync(dir, { recursive: true })
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true })
}

/** Desktop and phone widths, the two the dashboard is checked at. */
export const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 }
} as const

/** A tab, with what its console said so far. */
export interface Tab {
  readonly context: BrowserContext
  readonly page: Page
  /** The console's refusals of the page's Content-Security-Policy. */
  readonly refused: ReadonlyArray<string>
  /** The console's errors (a resource that failed to load among them). */
  readonly errors: ReadonlyArray<string>
  /** Empties `refused` and `errors`: what the console says from now on is a new test's. */
  readonly forgetConsole: () => void
}

/**
 * A new tab on `url` at desktop width in a context of its own (its own session storage), signed in with
 * `session` if one is given, with the errors its console shows in `errors`, and those that are refusals of
 * the page's Content-Security-Policy in `refused`. A context costs Chromium 3 to 4 s of CPU (a renderer
 * of its own, the dashboard's scripts compiled again; measured), a page load in it 0.6 s: a test at
 * another width changes the viewport of the tab it has (`page.setViewportSize`).
 */
export const openTab = async (browser: Browser, url: string, session?: string): Promise<Tab> => {
  const context = await browser.newContext({ viewport: viewports.desktop })
  if (session !== undefined) await context.addInitScript(keepSession, session)
  const page = await context.newPage()
  const refused: Array<string> = []
  const errors: Array<string> = []
  page.on("console", (message) => {
    if (message.type() !== "error") return
    errors.push(`${message.text()} (${message.location().url})`)
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text())
  })
  await page.goto(url)
  const forgetConsole = () => {
    refused.length = 0
    errors.length = 0
  }
  return { context, page, refused, errors, forgetConsole }
}

/**
 * One tab for a file's tests, opened (by `open`) before them and closed after them: a page load, a
 * renderer and a sign-in cost more than most tests' own work. The tests run in order on it, each from
 * the page the ones before left. What the console says is the test's that was running: the first test
 * reads what it said as the page loaded. Answers the tab, for a test to read once the file's tests run.
 */
export const tabOfFile = (open: () => Promise<Tab>): (() => Tab) => {
  let tab: Tab | undefined
  beforeAll(async () => {
    tab = await open()
  }, 60_000)
  afterEach(() => tab?.forgetConsole())
  afterAll(() => tab?.context.close())
  return () => {
    if (tab === undefined) throw new Error("the file's tab did not open")
    return tab
  }
}

/**
 * Puts a session token where the dashboard keeps the tab's session (src/dashboard/state/Session.ts), before
 * the page's own scripts run: the tab opens signed in. Runs in the page, so it names the key itself.
 */
const keepSession = (token: string): void => sessionStorage.setItem("gateway.session", token)

/** Whether nothing on the page is wider than the screen: no sideways scrolling on a phone. */
export const fitsTheScreen = (page: Page): Promise<boolean> => page.evaluate<boolean>("document.documentElement.scrollWidth <= window.innerWidth")

/** A violation axe-core reports on a page. */
export interface AxeViolation {
  readonly id: string
  readonly impact: string | null
  readonly help: string
  readonly nodes: ReadonlyArray<{ readonly target: ReadonlyArray<string> }>
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

/**
 * axe-core's serious and critical violations on the page as it is now. axe is evaluated through the
 * browser's DevTools protocol, which the page's Content-Security-Policy does not govern (a script element
 * would need a context made with `bypassCSP: true`): the page is checked as it runs, its policy on. Once
 * a page: its 650 kB cost a second of CPU to send and compile, and a page that has it keeps it.
 */
export const seriousViolations = async (page: Page): Promise<ReadonlyArray<AxeViolation>> => {
  if (!(await page.evaluate<boolean>("typeof axe === 'object'"))) await page.evaluate(axeSource)
  // Evaluated in the page, where axe is now a global; its report is plain JSON.
  const violations = await page.evaluate<ReadonlyArray<AxeViolation>>("axe.run().then((report) => report.violations)")
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical")
}

/**
 * Signs `user` in with the page's sign-in form, and waits for the home. A sign-in checks the password
 * with scrypt and then loads the home: on a busy machine that takes longer than a poll's one second, so
 * the wait is for the heading to appear (Playwright's own wait, bounded by the test's time-out).
 */
export const signIn = async (page: Page, user: { readonly username: string; readonly password: string }): Promise<void> => {
  await page.getByLabel("Username").fill(user.username)
  await page.getByLabel("Password").fill(user.password)
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.getByRole("heading", { level: 1, name: "Your home" }).waitFor({ state: "visible" })
}
