import WebSocket from "ws"
import { ChannelId, channelSelector, type Client, exactly } from "../../src/client/index.ts"

/**
 * A watcher of one numbered channel (test/support/bridgePlayer.ts) through a load balancer, that keeps
 * what a failover test asks of it: every value it got, on which connection, when its connection was
 * lost and when it was registered again (for the client, when it says `Connected` again: after it read
 * the watched set over REST to settle what left meanwhile). Two kinds: a raw WebSocket that reconnects
 * as an app would (at once, then every 100 ms), and the TypeScript client's watch, which reconnects on its own.
 */

export interface Seen {
  readonly value: number
  /** 0 for the first connection, 1 for the next… */
  readonly connection: number
}

export interface NumberedWatcher {
  readonly channel: string
  readonly seen: ReadonlyArray<Seen>
  /** When each later connection was registered (its first event, or the client's `Connected`), ms since the epoch. */
  readonly registeredAgainAt: ReadonlyArray<number>
  /** Its latest value. */
  readonly last: () => number | undefined
  readonly close: () => Promise<void>
}

/** An `ExtNumeric` value's number, as B writes it and as the client reads it. */
const numberIn = (value: unknown): number | undefined => {
  if (typeof value !== "object" || value === null) return undefined
  const inner: unknown = "ExtNumeric" in value ? value.ExtNumeric : value
  return typeof inner === "object" && inner !== null && "value" in inner && typeof inner.value === "number" ? inner.value : undefined
}

interface Recorder {
  readonly seen: Array<Seen>
  readonly registeredAgainAt: Array<number>
}

const recorder = (channel: string, close: () => Promise<void>, state: Recorder): NumberedWatcher => ({
  channel,
  seen: state.seen,
  registeredAgainAt: state.registeredAgainAt,
  last: () => state.seen.at(-1)?.value,
  close
})

/** A raw WebSocket watcher in vocabulary B, asking for current values on every registration. */
export const rawWatcher = async (baseUrl: string, token: string, channel: string): Promise<NumberedWatcher> => {
  const state: Recorder = { seen: [], registeredAgainAt: [] }
  const url = `${baseUrl.replace(/^http/, "ws")}/api/v1/channels/watch?vocabulary=b`
  let closing = false
  let current: WebSocket | undefined
  const connect = (connection: number): Promise<void> =>
    new Promise((resolve) => {
      const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } })
      current = socket
      let registered = false
      socket.on("open", () => socket.send(JSON.stringify([{ select: { id: channel }, initial_values: true }])))
      socket.on("message", (data) => {
        if (!registered) {
          registered = true
          if (connection > 0) state.registeredAgainAt.push(Date.now())
          resolve()
        }
        const frame: unknown = JSON.parse(String(data))
        if (typeof frame !== "object" || frame === null || !("Value" in frame)) return
        const value = typeof frame.Value === "object" && frame.Value !== null && "value" in frame.Value ? numberIn(frame.Value.value) : undefined
        if (value !== undefined) state.seen.push({ value, connection })
      })
      // Lost (or never opened): again, at once the first time, then every 100 ms, as an app would.
      socket.on("error", () => undefined)
      socket.on("close", () => {
        if (closing) return resolve()
        const next = registered ? connection + 1 : connection
        setTimeout(() => void connect(next), registered ? 0 : 100)
        if (!registered) resolve()
      })
    })
  await connect(0)
  const close = async () => {
    closing = true
    const socket = current
    if (socket === undefined || socket.readyState === WebSocket.CLOSED) return
    await new Promise<void>((resolve) => {
      socket.once("close", () => resolve())
      socket.close()
    })
  }
  return recorder(channel, close, state)
}

/**
 * A watch of the TypeScript client (vocabulary B: `createClient`), with its connection events: it
 * reconnects and registers again by itself. `close` ends the watch; the client stays open.
 */
export const clientWatcher = async (client: Client, channel: string): Promise<NumberedWatcher> => {
  const state: Recorder = { seen: [], registeredAgainAt: [] }
  const stop = new AbortController()
  const watch = client.watch(
    [{ selector: channelSelector({ id: exactly(ChannelId.make(channel)), mechanism: exactly("getter") }), values: { _tag: "Always" }, topology: true, initialValues: true }],
    { connectionEvents: true },
    { signal: stop.signal }
  )
  let connection = -1
  let firstConnected: () => void = () => undefined
  const connected = new Promise<void>((resolve) => (firstConnected = resolve))
  const reading = (async () => {
    for await (const event of watch) {
      if (event._tag === "Connected") {
        connection++
        if (connection > 0) state.registeredAgainAt.push(Date.now())
        firstConnected()
      } else if (event._tag === "ValueChanged") {
        const value = numberIn(event.value)
        if (value !== undefined) state.seen.push({ value, connection })
      }
    }
  })().catch(() => undefined)
  await connected
  const close = async () => {
    stop.abort()
    await reading
  }
  return recorder(channel, close, state)
}
