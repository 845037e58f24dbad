import { mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Browser, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll } from "vitest"
import { launchChromium } from "../../bench/support/Chromium.ts"

let workerChromium: Promise<Browser> | undefined
let workerTab: Promise<Tab> | undefined

/**
 * The test worker's headless Chromium for the dashboard's tests: the bench's (bench/support/Chromium.ts),
 * launched by the first browser test file the worker runs and kept for the next ones. It is never
 * closed: Playwright stops it when the worker exits (its exit and signal handlers); idle, with its tab
 * on a blank page or on a live home, it costs under 0.01 s of CPU a second (measured). One that
 * disconnects, or that failed to launch, is launched again by the next file. Where Chromium is not installed this throws at once, before it returns
 * a promise: a test that calls it first in a `Promise.all` starts nothing else.
 */
export const sharedChromium = (): Promise<Browser> => {
  workerChromium ??= launchChromium().then(
    (browser) =>
      browser.on("disconnected", () => {
        workerChromium = undefined
        workerTab = undefined
      }),
    (error: unknown) => {
      // Not kept: the worker's next browser file launches again, rather than failing with this file's error.
      workerChromium = undefined
      throw error
    }
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
  readonly page: Page
  /** The console's refusals of the page's Content-Security-Policy. */
  readonly refused: ReadonlyArray<string>
  /** The console's errors (a resource that failed to load among them). */
  readonly errors: ReadonlyArray<string>
  /** Empties `refused` and `errors`: what the console says from now on is a new test's. */
  readonly forgetConsole: () => void
}

/**
 * A new tab at desktop width, in a context of its own, with the errors its console shows in `errors`, and
 * those that are refusals of the page's Content-Security-Policy in `refused`.
 */
const newTab = async (browser: Browser): Promise<Tab> => {
  const context = await browser.newContext({ viewport: viewports.desktop })
  const page = await context.newPage()
  const refused: Array<string> = []
  const errors: Array<string> = []
  page.on("console", (message) => {
    if (message.type() !== "error") return
    errors.push(`${message.text()} (${message.location().url})`)
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text())
  })
  const forgetConsole = () => {
    refused.length = 0
    errors.length = 0
  }
  return { page, refused, errors, forgetConsole }
}

/**
 * The worker's one tab, which the browser test files it runs take in turn (`tabOfFile`): a context of
 * its own and its first page cost Chromium 1.5 s of CPU (a renderer, the dashboard's scripts compiled
 * again), a page load in the tab it has 0.5 s, 1 s on a gateway it has not shown yet (measured in the
 * headless shell, load 15-20).
 */
const sharedTab = (): Promise<Tab> => {
  workerTab ??= sharedChromium().then(newTab, (error: unknown) => {
    workerTab = undefined
    throw error
  })
  return workerTab
}

/**
 * The worker's tab for a file's tests, which `show` loads before them (a page of the file's gateway,
 * signed in or not; nothing if each test shows its own): a page load and a sign-in cost more than most
 * tests' own work. The tests run in order on it, each from the page the ones before left, at desktop
 * width (a test at another one sets it back). What the console says is the test's that was running: the
 * first test reads what it said as the page loaded. After the file, even one whose `show` failed, the
 * tab forgets its routes and leaves the page (its watch socket closes before the file's gateway stops),
 * at desktop width: the next file finds it as a new one. Answers the tab, for a test to read once the
 * file's tests run.
 */
export const tabOfFile = (show: (tab: Tab) => Promise<void> = async () => {}): (() => Tab) => {
  let taken: Tab | undefined
  let tab: Tab | undefined
  beforeAll(async () => {
    taken = await sharedTab()
    taken.forgetConsole()
    await show(taken)
    tab = taken
  }, 60_000)
  afterEach(() => tab?.forgetConsole())
  afterAll(async () => {
    if (taken === undefined) return
    await taken.page.unrouteAll()
    await taken.page.setViewportSize(viewports.desktop)
    await taken.page.goto("about:blank")
  })
  return () => {
    if (tab === undefined) throw new Error("the file's tab did not open")
    return tab
  }
}

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
  // Evaluated in the page, where axe is now a global; its report is plain JSON. Only the violations are
  // reported in full: axe's details of the rules a page passes cost a run 0.1 to 0.2 s of CPU (measured).
  const violations = await page.evaluate<ReadonlyArray<AxeViolation>>(`axe.run({ resultTypes: ["violations"] }).then((report) => report.violations)`)
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
