import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type { BrowserServer } from "playwright-core"

/**
 * The variable through which a worker finds the run's Chromium (`sharedChromium` in browser.ts): the
 * address of a loopback server of this setup's, whose answer is the browser's WebSocket endpoint.
 */
export const chromiumOfRunVariable = "GATEWAY_TEST_CHROMIUM"

/**
 * Vitest global setup: one headless Chromium for the run's browser tests, which every worker connects
 * to (`chromium.connect`), each with a context of its own, rather than one Chromium per worker: two
 * launches fewer, and one browser process and one GPU process doing the work of three (measured in the
 * commit that made it). Launched when a worker first asks for it, so that a run without a browser test
 * launches none; closed when the run ends. A worker asks again when its connection drops: a Chromium that
 * closed is launched again. Where Chromium is not installed, the worker's own check says so before it asks.
 */
export default async function setup(): Promise<() => Promise<void>> {
  let launched: Promise<BrowserServer> | undefined
  const launch = async (): Promise<BrowserServer> => {
    // Imported here: playwright-core costs a process a second of CPU to import, which a run without a browser test spares.
    const [{ chromium }, { chromiumLaunchOptions }] = await Promise.all([import("playwright-core"), import("../../bench/support/Chromium.ts")])
    const browser = await chromium.launchServer({ ...chromiumLaunchOptions(), host: "127.0.0.1" })
    browser.on("close", () => {
      launched = undefined
    })
    return browser
  }
  const server = createServer((_request, response) => {
    launched ??= launch()
    launched.then(
      (browser) => response.writeHead(200, { "content-type": "text/plain" }).end(browser.wsEndpoint()),
      (error: unknown) => {
        launched = undefined
        response.writeHead(500, { "content-type": "text/plain" }).end(error instanceof Error ? error.message : String(error))
      }
    )
  })
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  process.env[chromiumOfRunVariable] = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  return async () => {
    await new Promise<void>((closed) => server.close(() => closed()))
    const browser = await launched?.catch(() => undefined)
    await browser?.close()
  }
}
