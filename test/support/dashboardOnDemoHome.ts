import { writeFileSync } from "node:fs"
import { join } from "node:path"
import type { Page } from "playwright-core"
import { afterAll, beforeAll } from "vitest"
import { demoHome } from "../../src/adapters/simulator/DemoHome.ts"
import { sharedChromium, type Tab, tabOfFile } from "./browser.ts"
import { freshDataDir } from "./gatewayTestLayer.ts"
import { send } from "./httpRequest.ts"
import { show } from "./signedInPage.ts"
import { type RunningGateway, spawnGateway } from "./spawnGateway.ts"

/**
 * What a browser test of the dashboard's signed-in pages runs against: the built gateway (`npm run build`
 * first) on the demo home, written to a home file a test may edit, its first administrator made over
 * HTTP, and a real Chromium.
 */

export const owner = { username: "owner", email: "owner@example.org", password: "a long enough password" }

export interface DashboardOnDemoHome {
  readonly gateway: RunningGateway
  /** The gateway's data folder, for the command line (`gateway users add … --data`). */
  readonly dataDir: string
  readonly homeFile: string
  /** The owner's session token, for the test's own requests. */
  readonly ownerToken: string
  /** Stops the gateway (the browser is the worker's: sharedChromium). */
  readonly stop: () => Promise<void>
}

/** The rig on `home` (a home file's content): the demo home unless a test needs another (a large one). */
export const startDashboardOnDemoHome = async (home: unknown = demoHome): Promise<DashboardOnDemoHome> => {
  const dataDir = freshDataDir()
  const homeFile = join(dataDir, "home.json")
  writeFileSync(homeFile, JSON.stringify(home))
  // Chromium first: where it is missing, sharedChromium throws before the gateway starts.
  const [, gateway] = await Promise.all([
    sharedChromium(),
    spawnGateway(["serve", "--port", "0", "--no-clock", "--no-default-admin", "--data", dataDir, "--home", homeFile])
  ])
  const setup = await send(`${gateway.baseUrl}/users/setup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(owner)
  })
  const { session_token } = JSON.parse(setup.body) as { readonly session_token: string }
  const stop = async () => {
    await gateway.stop("SIGTERM")
  }
  return { gateway, dataDir, homeFile, ownerToken: session_token, stop }
}

/**
 * The rig of a test file: started before its tests, stopped after them (if it started: a failed start,
 * Chromium missing, fails the file with that start's own error and nothing else). Answers the rig, for
 * a test to read once the file's tests run.
 */
export const dashboardOnDemoHomeOfFile = (home: unknown = demoHome): (() => DashboardOnDemoHome) => {
  let rig: DashboardOnDemoHome | undefined
  beforeAll(async () => {
    rig = await startDashboardOnDemoHome(home)
  }, 60_000)
  afterAll(() => rig?.stop())
  return () => {
    if (rig === undefined) throw new Error("the dashboard's gateway did not start")
    return rig
  }
}

/** A new session of the owner's on the gateway at `baseUrl`, as the sign-in form makes one (`POST /users/login`). */
const newSession = async (baseUrl: string): Promise<string> => {
  const login = await send(`${baseUrl}/users/login`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${owner.username}:${owner.password}`).toString("base64")}` }
  })
  if (login.status !== 201) throw new Error(`the owner's login answered ${login.status}: ${login.body}`)
  return (JSON.parse(login.body) as { readonly session_token: string }).session_token
}

/**
 * Shows the home of the gateway at `baseUrl` in `page`, signed in as the owner with a session of its own.
 * The session is made over HTTP and put where the page keeps it, rather than through the sign-in form
 * (which session.e2e.test.ts tests): the form costs a page of its own, each test over.
 */
export const showOwnersHome = async (page: Page, baseUrl: string): Promise<void> => {
  await show(page, baseUrl, await newSession(baseUrl))
  await page.getByRole("heading", { level: 1, name: "Your home" }).waitFor({ state: "visible" })
}

/** The worker's tab for a file's tests, on the rig's home signed in as the owner (`showOwnersHome`). */
export const ownersTabOfFile = (rig: () => DashboardOnDemoHome): (() => Tab) =>
  tabOfFile(({ page }) => showOwnersHome(page, rig().gateway.baseUrl))
