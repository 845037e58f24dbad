import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { seriousViolations, sharedChromium, tabOfFile, viewports } from "./browser.ts"

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

const pageUrl = () => {
  const address = server?.address() as AddressInfo | null | undefined
  if (address === undefined || address === null) throw new Error("the page's server did not start")
  return `http://127.0.0.1:${address.port}/`
}

const tab = tabOfFile(async ({ page }) => {
  await page.goto(pageUrl())
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

/** Two files of a worker, as describes that take the worker's tab in turn: the first leaves it as a test may. */
describe("the worker's tab, file after file", () => {
  let firstPage: Page | undefined

  describe("a file that narrows the tab and routes its requests", () => {
    const first = tabOfFile(async ({ page }) => {
      await page.goto(pageUrl())
    })

    it("leaves the tab at phone width, the missing image answered by a route", async () => {
      const { page } = first()
      firstPage = page
      await page.setViewportSize(viewports.phone)
      await page.route("**/missing.png", (route) => route.fulfill({ status: 200, contentType: "image/png", body: "" }))
    })
  })

  describe("the file after it", () => {
    const next = tabOfFile()

    it("takes the same tab, on no page, at desktop width and without the routes", async () => {
      const { page, errors } = next()
      expect(page).toBe(firstPage)
      expect(page.url()).toBe("about:blank")
      expect(page.viewportSize()).toEqual(viewports.desktop)
      await page.goto(pageUrl())
      // Not answered by the route: the image is missing again.
      await expect.poll(() => errors).toEqual([expect.stringContaining("404")])
    })
  })
})
