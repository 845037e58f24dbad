import { type Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http"

/**
 * One HTTP request over a real socket with node:http, which (unlike fetch) can send a body on
 * GET and can stream a chunked body without a Content-Length.
 */

export interface HttpReply {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: string
  /** The body as received, for answers that are not text. */
  readonly bytes: Buffer
}

export interface HttpRequestOptions {
  readonly method?: string
  readonly headers?: Readonly<Record<string, string>>
  /** Sent with a Content-Length. */
  readonly body?: string
  /**
   * Written piece by piece, chunked unless `headers` declares a Content-Length; the body is left
   * open unless `end` is true.
   */
  readonly chunks?: ReadonlyArray<string>
  readonly end?: boolean
  /** A request with no answer by then fails, so a hanging server fails the test quickly. */
  readonly timeoutMs?: number
  /** The client's source address (loopback offers 127.0.0.2 and on as other clients). */
  readonly localAddress?: string
  /** Connections kept alive between requests (by default each request has a connection of its own, closed after). */
  readonly agent?: Agent
}

export const send = (url: string, options: HttpRequestOptions = {}): Promise<HttpReply> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: options.method ?? "GET",
      headers: options.headers,
      agent: options.agent ?? false,
      ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress })
    })
    let answered = false
    req.setTimeout(options.timeoutMs ?? 5_000, () => req.destroy(new Error(`no answer from ${url}`)))
    req.on("response", (res) => {
      answered = true
      const chunks: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => {
        const bytes = Buffer.concat(chunks)
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString("utf8"), bytes })
        if (options.agent === undefined) req.destroy()
      })
      res.on("error", reject)
    })
    // After an early answer (413) the server may close while the body is still being written.
    req.on("error", (error) => {
      if (answered) return
      // A kept-alive connection the server closed as this request went out on it, unread: sent again,
      // once, on a connection of its own (the retry Node's documentation gives for this race).
      if (req.reusedSocket && (error as NodeJS.ErrnoException).code === "ECONNRESET") {
        send(url, { ...options, agent: undefined }).then(resolve, reject)
      } else reject(error)
    })
    if (options.chunks !== undefined) {
      for (const chunk of options.chunks) req.write(chunk)
      if (options.end === true) req.end()
      else req.flushHeaders()
    } else {
      if (options.body !== undefined) req.setHeader("content-length", Buffer.byteLength(options.body))
      req.end(options.body)
    }
  })
