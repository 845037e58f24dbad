import WebSocket from "ws"

/**
 * A real `ws` client of the watch socket. Every watch test opens its sockets through `openWatch`, so
 * that what every socket needs (credentials, once the API asks for them) is added here, once.
 */
export interface WatchClient {
  /** Sends one frame: a string as it is, anything else as JSON. */
  readonly send: (frame: unknown) => void
  /** The next frame the server sent, parsed; fails after `timeoutMs` (a stuck test, not a timing assertion). */
  readonly next: (timeoutMs?: number) => Promise<unknown>
  /** The next `n` frames. */
  readonly collect: (n: number) => Promise<ReadonlyArray<unknown>>
  /** Resolves when the server closes the socket (or it is dropped), with the close code and reason. */
  readonly closed: Promise<{ readonly code: number; readonly reason: string }>
  /** Closes the socket and waits until it is closed. */
  readonly close: () => Promise<void>
  readonly socket: WebSocket
}

/** Where the watch socket is, and the token it is opened with (`Authorization: Bearer`). */
export interface WatchTarget {
  readonly baseUrl: string
  readonly token: string
}

/**
 * `query` without its `?`, e.g. `vocabulary=a`. `options` go to `ws` (e.g. `autoPong: false`); their
 * `headers` replace the token's.
 */
export const openWatch = async (gateway: WatchTarget, query = "", options: WebSocket.ClientOptions = {}): Promise<WatchClient> => {
  const url = `${gateway.baseUrl.replace(/^http/, "ws")}/api/v1/channels/watch${query === "" ? "" : `?${query}`}`
  const socket = new WebSocket(url, { headers: { authorization: `Bearer ${gateway.token}` }, ...options })
  const frames: Array<unknown> = []
  const waiting: Array<(frame: unknown) => void> = []
  socket.on("message", (data, isBinary) => {
    const frame: unknown = JSON.parse(isBinary ? Buffer.from(data as Buffer).toString("utf8") : String(data))
    const waiter = waiting.shift()
    if (waiter === undefined) frames.push(frame)
    else waiter(frame)
  })
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on("close", (code, reason) => resolve({ code, reason: reason.toString("utf8") }))
  })
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve())
    socket.once("error", reject)
  })
  const next = (timeoutMs = 5_000) => {
    if (frames.length > 0) return Promise.resolve(frames.shift())
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(receive), 1)
        reject(new Error(`no frame from the watch socket within ${timeoutMs} ms`))
      }, timeoutMs)
      const receive = (frame: unknown) => {
        clearTimeout(timer)
        resolve(frame)
      }
      waiting.push(receive)
    })
  }
  return {
    send: (frame) => socket.send(typeof frame === "string" ? frame : JSON.stringify(frame)),
    next,
    collect: async (n) => {
      const out: Array<unknown> = []
      for (let i = 0; i < n; i++) out.push(await next())
      return out
    },
    closed,
    close: async () => {
      if (socket.readyState !== WebSocket.CLOSED) socket.close()
      await closed
    },
    socket
  }
}

/**
 * How the server closed the socket, or "still open" after `timeoutMs` (a bound for a stuck test, far
 * beyond what the close should take, not a timing assertion).
 */
export const closedWithin = (client: WatchClient, timeoutMs = 5_000): Promise<{ readonly code: number; readonly reason: string } | "still open"> => {
  let timer: NodeJS.Timeout | undefined
  const stillOpen = new Promise<"still open">((resolve) => {
    timer = setTimeout(() => resolve("still open"), timeoutMs)
  })
  return Promise.race([client.closed, stillOpen]).finally(() => clearTimeout(timer))
}
