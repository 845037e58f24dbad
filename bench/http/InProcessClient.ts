import type { Server } from "node:http"
import { Duplex } from "node:stream"

/**
 * An HTTP/1.1 client inside the server's own process, on a connection that is a plain stream instead of
 * a socket: Node's HTTP server parses and answers it exactly as a socket's, but no system call is made.
 * What a request costs there is what JavaScript spends on it (Node's parser and writer, Effect, the
 * gateway), measured without the kernel's share, which on this machine's virtual CPU is most of a
 * socket's cost and varies with the machine's load.
 */

/** The server's end of the connection: what the server writes is handed to `received`. */
class StreamConnection extends Duplex {
  readonly remoteAddress = "127.0.0.1"
  readonly remotePort = 40000
  readonly remoteFamily = "IPv4"
  readonly localAddress = "127.0.0.1"
  readonly localPort = 3000
  readonly encrypted = false

  constructor(private readonly received: (chunk: Buffer) => void) {
    super()
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.received(chunk)
    done()
  }

  setTimeout(): this {
    return this
  }

  setNoDelay(): this {
    return this
  }

  setKeepAlive(): this {
    return this
  }

  ref(): this {
    return this
  }

  unref(): this {
    return this
  }
}

export interface Answer {
  readonly status: number
  readonly body: string
}

/** A keep-alive connection to `server` that sends one request at a time. */
export interface InProcessClient {
  readonly send: (request: Buffer) => Promise<Answer>
  readonly close: () => void
}

const headerEnd = Buffer.from("\r\n\r\n")

export const connect = (server: Server): InProcessClient => {
  let buffered: Buffer = Buffer.alloc(0)
  let waiting: ((answer: Answer) => void) | undefined
  /** A response is whole once its headers and `Content-Length` bytes of body are in. */
  const received = (chunk: Buffer) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk])
    const end = buffered.indexOf(headerEnd)
    if (end === -1) return
    const head = buffered.subarray(0, end).toString("latin1")
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0)
    if (buffered.length < end + 4 + length) return
    const status = Number(head.slice(9, 12))
    const body = buffered.subarray(end + 4, end + 4 + length).toString("utf8")
    buffered = buffered.subarray(end + 4 + length)
    const resolve = waiting
    waiting = undefined
    resolve?.({ status, body })
  }
  const connection = new StreamConnection(received)
  server.emit("connection", connection)
  return {
    send: (request) =>
      new Promise((resolve) => {
        waiting = resolve
        connection.push(request)
      }),
    close: () => connection.destroy()
  }
}

/** The bytes of a request with an optional JSON body (GET carries one, as the API's reads do). */
export const requestBytes = (method: string, path: string, headers: Readonly<Record<string, string>>, body?: string): Buffer => {
  const lines = [`${method} ${path} HTTP/1.1`, "Host: 127.0.0.1", ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)]
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`, "Content-Type: application/json")
  return Buffer.from(`${lines.join("\r\n")}\r\n\r\n${body ?? ""}`)
}
