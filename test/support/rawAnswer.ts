import { connect } from "node:net"

/**
 * The raw answer to `request` (its bytes as written, pipelined requests included) on a connection of its
 * own to `port` on loopback, read until the server closes it: the first head, and everything after it.
 */
export const rawAnswer = (port: number, request: string) =>
  new Promise<{ readonly head: string; readonly body: Buffer }>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(request))
    const chunks: Array<Buffer> = []
    socket.on("data", (chunk: Buffer) => chunks.push(chunk))
    socket.on("error", reject)
    socket.on("end", () => {
      const received = Buffer.concat(chunks)
      const end = received.indexOf("\r\n\r\n")
      resolve({ head: received.subarray(0, end).toString("latin1"), body: received.subarray(end + 4) })
    })
  })
