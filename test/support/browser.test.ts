import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { seriousViolations, sharedChromium, tabOfFile } from "./browser.ts"

/**
 * The browser tests' own tools, on a page of this test's: a button without a name (a critical violation
 * for axe), an image that is not there (a console error as the page loads), and the dashboard's
 * Content-Security-Policy (scripts from the page's own origin only).
 */

const page = `<!doctype html><html lang="en"><head><title>A page of the tests</title></head>
<body><main><h1>A page of the tests</h1><img src="/missing.png" alt="missing"><button></button></main></body></html>`

let server: Server | undefined

beforeAll(async () => {
  // Chromium first: where it is missing, sharedChromium throws before the server starts.
  await sharedChromium()
  server = createServer((request, response) => {
    // Chromium asks for an icon after the load: none, and no error for it.
    if (request.url === "/favicon.ico") return void response.writeHead(204).end()
    if (request.url !== "/") return void response.writeHead(404).end()
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": "default-src 'self'; script-src 'self'" }).end(page)
  })
  await new Promise<void>((listening) => server?.listen(0, "127.0.0.1", listening))
})

afterAll(() => new Promise<void>((closed) => (server === undefined ? closed() : server.close(() => closed()))))

const tab = tabOfFile(async ({ page }) => {
  const address = server?.address() as AddressInfo | null | undefined
  if (address === undefined || address === null) throw new Error("the page's server did not start")
  await page.goto(`http://127.0.0.1:${address.port}/`)
})

describe("tabOfFile", () => {
  it("gives the first test what the console said as the page loaded", async () => {
    // The console's report of the load may come after the load itself.
    await expect.poll(() => tab().errors).toEqual([expect.stringContaining("404")])
  })

  it("gives a later test only what the console says while it runs", async () => {
    const { page, errors } = tab()
    expect(errors).toEqual([])
    await page.evaluate(() => console.error("said by this test"))
    await expect.poll(() => errors).toEqual([expect.stringContaining("said by this test")])
  })
})

describe("seriousViolations", () => {
  it("reports a page's violations with the page's Content-Security-Policy on, which refuses a script element", async () => {
    const { page, refused } = tab()
    expect((await seriousViolations(page)).map((violation) => violation.id)).toEqual(["button-name"])
    expect(refused).toEqual([])
    // Evaluated in the page (a string: this file's types have no DOM).
    await page.evaluate(`document.head.append(Object.assign(document.createElement("script"), { textContent: "document.title = 'ran'" }))`)
    await expect.poll(() => refused.length).toBe(1)
    expect(await page.title()).toBe("A page of the tests")
  })
})
