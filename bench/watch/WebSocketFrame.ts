// Frames for the watch benchmark's lean client (LeanWebSocket.ts), which writes and reads them itself.

/**
 * The head of one whole frame of RFC 6455 (§5.2): `first` (FIN, no extension bits, the opcode), the
 * mask bit, and the payload's length in 7, 16 or 64 bits. The 4-byte masking key of a masked frame
 * follows it.
 */
export const frameHead = (first: number, length: number, masked: boolean): Buffer => {
  const size = length < 126 ? 2 : length < 65_536 ? 4 : 10
  const head = Buffer.allocUnsafe(size)
  const mask = masked ? 0x80 : 0
  head[0] = first
  if (size === 2) {
    head[1] = mask | length
  } else if (size === 4) {
    head[1] = mask | 126
    head.writeUInt16BE(length, 2)
  } else {
    head[1] = mask | 127
    head.writeBigUInt64BE(BigInt(length), 2)
  }
  return head
}

/** One whole, unmasked text frame, as a server sends it: what the lean client's tests feed it. */
export const textFrame = (payload: Uint8Array): Buffer => Buffer.concat([frameHead(0x81, payload.byteLength, false), payload])
