import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createServer, get, type IncomingHttpHeaders, request, type Server, type ServerResponse } from "node:http"
import { SecuredResponse, securing, securityHeaders } from "../../src/http/transport/ResponseHeaders.ts"

/**
 * SecuredResponse (the gateway's server makes its responses with it): the security headers are written
 * with the answer's own, in every way Node lets a handler write its head, and a header the handler set
 * by the same name wins over them.
 */

/** The headers of an answer given again and again (the gateway's `/health`: one response, written each time). */
const sameHeaders = { "content-type": "text/plain" }

const writers: Record<string, (response: ServerResponse) => void> = {
  "/same": (response) => response.writeHead(200, sameHeaders).end("same"),
  "/same-set-before": (response) => {
    response.setHeader("x-frame-options", "SAMEORIGIN")
    response.writeHead(200, sameHeaders).end("same, set before")
  },
  "/object": (response) => response.writeHead(200, { "content-type": "text/plain" }).end("object"),
  "/reason": (response) => response.writeHead(200, "Fine", { "content-type": "text/plain" }).end("reason"),
  "/pairs": (response) => response.writeHead(200, ["content-type", "text/plain"]).end("pairs"),
  "/implicit": (response) => response.end("implicit"),
  "/own-frame-options-pairs": (response) => response.writeHead(200, ["X-Frame-Options", "SAMEORIGIN", "content-type", "text/plain"]).end("own"),
  "/own-cache-control": (response) => response.writeHead(200, { "Cache-Control": "max-age=60" }).end("own"),
  "/set-before": (response) => {
    response.setHeader("x-frame-options", "SAMEORIGIN")
    response.writeHead(200, { "content-type": "text/plain" }).end("set before")
  }
}

let server: Server
let port = 0
beforeAll(async () => {
  server = createServer({ ServerResponse: SecuredResponse }, (request, response) => writers[request.url ?? ""]?.(response))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  port = typeof address === "object" && address !== null ? address.port : 0
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** The head of the answer to `GET path`: its headers, and each header's name as many times as it came. */
const head = (path: string) =>
  new Promise<{ readonly headers: IncomingHttpHeaders; readonly names: ReadonlyArray<string> }>((resolve, reject) => {
    get({ host: "127.0.0.1", port, path }, (response) => {
      response.resume()
      const names = response.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase())
      response.on("end", () => resolve({ headers: response.headers, names }))
    }).on("error", reject)
  })

describe("SecuredResponse", () => {
  it.each(["/object", "/reason", "/pairs", "/implicit"])("writes every security header once on %s", async (path) => {
    const { headers, names } = await head(path)
    for (const [name, value] of Object.entries(securityHeaders)) {
      expect(headers[name]).toBe(value)
      expect(names.filter((n) => n === name)).toHaveLength(1)
    }
  })

  it("lets the answer's own header of the same name win, in any case, and writes it once", async () => {
    const { headers, names } = await head("/own-cache-control")
    expect(headers["cache-control"]).toBe("max-age=60")
    expect(names.filter((n) => n === "cache-control")).toHaveLength(1)
    expect(headers["x-frame-options"]).toBe("DENY")
  })

  it("writes an answer's headers given again as the first time, and one set before still wins", async () => {
    for (const path of ["/same", "/same", "/same-set-before", "/same"]) {
      const { headers, names } = await head(path)
      expect(headers["content-type"]).toBe("text/plain")
      expect(headers["x-frame-options"]).toBe(path === "/same-set-before" ? "SAMEORIGIN" : "DENY")
      for (const name of Object.keys(securityHeaders)) expect(names.filter((n) => n === name)).toHaveLength(1)
    }
  })

  it("writes the security headers first, in their order, then the answer's own in theirs", async () => {
    const security = Object.keys(securityHeaders)
    expect((await head("/object")).names.slice(0, security.length + 1)).toEqual([...security, "content-type"])
    expect((await head("/own-frame-options-pairs")).names.slice(0, security.length + 1)).toEqual([
      ...security.filter((name) => name !== "x-frame-options"),
      "x-frame-options",
      "content-type"
    ])
  })

  it("keeps a header set before the head is written", async () => {
    const { headers } = await head("/set-before")
    expect(headers["x-frame-options"]).toBe("SAMEORIGIN")
    expect(headers["referrer-policy"]).toBe("no-referrer")
  })
})

describe("securing", () => {
  /** A server with `securing` in front of a handler that writes a plain head, and the security headers of two answers. */
  const twoAnswers = async (options: { readonly ServerResponse?: typeof SecuredResponse }) => {
    const plain = createServer(options, (_request, response) => response.writeHead(200, { "content-type": "text/plain" }).end("plain"))
    plain.prependListener("request", securing(plain))
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve))
    const address = plain.address()
    const plainPort = typeof address === "object" && address !== null ? address.port : 0
    const answer = () =>
      new Promise<IncomingHttpHeaders>((resolve, reject) => {
        get({ host: "127.0.0.1", port: plainPort, path: "/" }, (response) => {
          response.resume()
          response.on("end", () => resolve(response.headers))
        }).on("error", reject)
      })
    try {
      const answers = [await answer(), await answer()]
      return { answers, listeners: plain.listenerCount("request") }
    } finally {
      await new Promise<void>((resolve) => plain.close(() => resolve()))
    }
  }

  it("sets the security headers on every response of a server not made with SecuredResponse", async () => {
    const { answers, listeners } = await twoAnswers({})
    for (const headers of answers) {
      for (const [name, value] of Object.entries(securityHeaders)) expect(headers[name]).toBe(value)
    }
    expect(listeners).toBe(2)
  })

  it("leaves a server made with SecuredResponse at its first request, whose answers still carry them", async () => {
    const { answers, listeners } = await twoAnswers({ ServerResponse: SecuredResponse })
    for (const headers of answers) {
      for (const [name, value] of Object.entries(securityHeaders)) expect(headers[name]).toBe(value)
    }
    expect(listeners).toBe(1)
  })
})

describe("SecuredResponse, as Node's server makes it", () => {
  it("keeps the options the server gives each response beside its request (here: a body refused on HEAD)", async () => {
    let refused = false
    const strict = createServer({ ServerResponse: SecuredResponse, rejectNonStandardBodyWrites: true }, (_request, response) => {
      try {
        response.write("a body HEAD must not have")
      } catch {
        refused = true
      }
      response.end()
    })
    await new Promise<void>((resolve) => strict.listen(0, "127.0.0.1", resolve))
    const address = strict.address()
    const strictPort = typeof address === "object" && address !== null ? address.port : 0
    try {
      await new Promise<void>((resolve, reject) => {
        request({ host: "127.0.0.1", port: strictPort, path: "/", method: "HEAD" }, (response) => {
          response.resume()
          response.on("end", resolve)
        }).on("error", reject).end()
      })
      expect(refused).toBe(true)
    } finally {
      await new Promise<void>((resolve) => strict.close(() => resolve()))
    }
  })
})
