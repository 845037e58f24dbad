import { randomBytes } from "node:crypto"
import { connect, type Socket } from "node:net"
import { frameHead } from "./WebSocketFrame.ts"

/**
 * A WebSocket client (RFC 6455) reduced to what the watch benchmark's load needs, on a plain TCP
 * socket: the opening handshake, masked text frames out, whole text frames in, pings answered. A
 * thousand `ws` clients in one process spend most of their core in `ws`'s stream machinery, and the
 * load process, not the gateway, then sets the latency the benchmark reports. Fragmented messages,
 * extensions and TLS are not needed there and not handled.
 */
export interface LeanWebSocket {
  readonly send: (text: string) => void
  /** Stops reading: the gateway's writes fill the socket's buffers, as with a client that stalls. */
  readonly pause: () => void
}

const opcodes = { text: 1, close: 8, ping: 9, pong: 10 } as const

/** One frame from the client: FIN, `opcode`, masked as a client's must be. */
const clientFrame = (opcode: number, payload: Buffer): Buffer => {
  const mask = randomBytes(4)
  const masked = Buffer.allocUnsafe(payload.length)
  for (let i = 0; i < payload.length; i++) masked[i] = (payload[i] ?? 0) ^ (mask[i & 3] ?? 0)
  return Buffer.concat([frameHead(0x80 | opcode, payload.length, true), mask, masked])
}

/**
 * Reads server frames from the bytes of `data` after `pending` (what the previous chunks left
 * unfinished); answers what is left unfinished now.
 */
const readFrames = (pending: Buffer, data: Buffer, onFrame: (opcode: number, payload: Buffer) => void): Buffer => {
  const bytes = pending.length === 0 ? data : Buffer.concat([pending, data])
  let at = 0
  while (bytes.length - at >= 2) {
    const opcode = (bytes[at] ?? 0) & 0x0f
    const short = (bytes[at + 1] ?? 0) & 0x7f
    const header = short < 126 ? 2 : short === 126 ? 4 : 10
    if (bytes.length - at < header) break
    const length = short < 126 ? short : short === 126 ? bytes.readUInt16BE(at + 2) : Number(bytes.readBigUInt64BE(at + 2))
    if (bytes.length - at < header + length) break
    onFrame(opcode, bytes.subarray(at + header, at + header + length))
    at += header + length
  }
  return bytes.subarray(at)
}

/** Opens a WebSocket to `url` (`ws://host:port/path`) with extra request `headers`. */
export const openLeanWebSocket = (
  url: string,
  headers: Readonly<Record<string, string>>,
  onMessage: (payload: Buffer) => void
): Promise<LeanWebSocket> =>
  new Promise((resolve, reject) => {
    const { hostname, port, pathname, search } = new URL(url)
    const socket: Socket = connect(Number(port), hostname)
    socket.setNoDelay(true)
    socket.once("error", reject)
    const send = (opcode: number, payload: Buffer) => socket.write(clientFrame(opcode, payload))
    // What came of the server's answer to the handshake, until it is whole; then `undefined`.
    let handshake: Buffer | undefined = Buffer.alloc(0)
    let pending: Buffer = Buffer.alloc(0)
    const onFrame = (opcode: number, payload: Buffer) => {
      if (opcode === opcodes.text) onMessage(payload)
      else if (opcode === opcodes.ping) send(opcodes.pong, Buffer.from(payload))
      else if (opcode === opcodes.close) socket.end()
    }
    const onData = (data: Buffer) => {
      if (handshake !== undefined) {
        handshake = Buffer.concat([handshake, data])
        const end = handshake.indexOf("\r\n\r\n")
        if (end < 0) return
        const status = handshake.toString("latin1", 0, handshake.indexOf("\r\n"))
        if (!status.startsWith("HTTP/1.1 101")) return reject(new Error(`${url}: ${status}`))
        const rest = handshake.subarray(end + 4)
        handshake = undefined
        resolve({ send: (text) => send(opcodes.text, Buffer.from(text)), pause: () => socket.pause() })
        data = rest
      }
      pending = readFrames(pending, data, onFrame)
    }
    socket.on("data", onData)
    socket.write(
      [
        `GET ${pathname}${search} HTTP/1.1`,
        `Host: ${hostname}:${port}`,
        "Upgrade: websocket",
        "Connection: Upgrade",
        `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}`,
        "Sec-WebSocket-Version: 13",
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
        "",
        ""
      ].join("\r\n")
    )
  })
