/**
 * One whole, unmasked text frame of RFC 6455 (§5.2), as a server sends it: FIN and opcode 1, no
 * extension bits, the payload's length in 7, 16 or 64 bits, then the payload. A server's frames are
 * never masked, so one frame can be written as it is to every connection that is to receive it.
 */
export const textFrame = (payload: Uint8Array): Buffer => {
  const length = payload.byteLength
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10
  const frame = Buffer.allocUnsafe(header + length)
  frame[0] = 0x81
  if (header === 2) {
    frame[1] = length
  } else if (header === 4) {
    frame[1] = 126
    frame.writeUInt16BE(length, 2)
  } else {
    frame[1] = 127
    frame.writeBigUInt64BE(BigInt(length), 2)
  }
  frame.set(payload, header)
  return frame
}
