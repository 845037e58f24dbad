import { fileURLToPath } from "node:url"
import { Option } from "effect"
import type { Page } from "playwright-core"
import { afterAll, beforeAll } from "vitest"
import { demoHome } from "../../src/adapters/simulator/DemoHome.ts"
import { sharedChromium, type Tab, tabOfFile } from "./browser.ts"
import { type GatewayOverHttp, startGateway, testAdminPassword } from "./gatewayOverHttp.ts"
import { send } from "./httpRequest.ts"
import { show } from "./signedInPage.ts"

/**
 * What a browser test of the dashboard's signed-in pages runs against: a whole gateway in the test's
 * process (gatewayOverHttp.ts) serving the dashboard `npm run build` made, on the demo home, written to a
 * home file a test may edit, with the owner as a user of it, and a real Chromium. In process, not spawned:
 * these tests test the pages, and a gateway process cost 0.55 s of CPU to start and 0.25 s at each sign-in
 * (the real scrypt; measured); session.e2e.test.ts runs the built gateway's first run as a process.
 */

/** The user the pages are signed in as: made as the tests' gateway makes users, with its test password. */
export const owner = { username: "owner", email: "owner@example.org", password: testAdminPassword }

/** The dashboard `npm run build` makes (dist/dashboard), served at `/`. */
export const builtDashboard = fileURLToPath(new URL("../../dist/dashboard/", import.meta.url))

export interface DashboardOnDemoHome {
  readonly gateway: GatewayOverHttp
  /** The gateway's data folder, for the database (`insertTokens`). */
  readonly dataDir: string
  readonly homeFile: string
  /** The owner's session token, for the test's own requests. */
  readonly ownerToken: string
  /** Stops the gateway (the browser is the worker's: sharedChromium). */
  readonly stop: () => Promise<void>
}

/** The rig on `home` (a home file's content): the demo home unless a test needs another (a large one). */
export const startDashboardOnDemoHome = async (home: unknown = demoHome): Promise<DashboardOnDemoHome> => {
  // Chromium first: where it is missing, sharedChromium throws before the gateway starts.
  const [, gateway] = await Promise.all([sharedChromium(), startGateway(home, { dashboard: Option.some(builtDashboard) })])
  try {
    // The owner, made as the gateway's `admin` is (a user, and a token this rig does not use).
    await gateway.createToken({ user: owner.username })
    const ownerToken = await newSession(gateway.baseUrl)
    return { gateway, dataDir: gateway.dataDir, homeFile: gateway.homeFile, ownerToken, stop: gateway.close }
  } catch (error) {
    await gateway.close()
    throw error
  }
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
export const newSession = async (baseUrl: string): Promise<string> => {
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
