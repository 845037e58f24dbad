import * as Option from "effect/Option"
import type { WatchEvent } from "../../domain/Watch.ts"
import { type EventRun, WATCH_QUEUE_LIMIT } from "../../gateway/WatchQueue.ts"
import type { Vocabulary } from "../../vocabulary/ChannelTagBody.ts"
import { encodeWatchEvent } from "../../vocabulary/WatchFrame.ts"

/**
 * The watch socket's events as the bytes that go on the wire: each event's whole WebSocket frame (head
 * and payload), made once per vocabulary whatever the number of sockets it goes to (the watch hub hands
 * every watcher of a value the same event object), and a shared registration answer's frames one after
 * another, made once per vocabulary for every socket that registers the same (RegistrationAnswers), of
 * which a batch is a slice or two: no copy, no encoding, per socket.
 */

/**
 * The head of a server's text frame, whole (FIN) and unmasked, carrying `length` bytes (RFC 6455 §5.2):
 * the length in 7 bits, or 126 and 16 bits, or 127 and 64 bits. No extension is negotiated (the server
 * offers no compression), so the reserved bits stay clear.
 */
const textFrameHead = (length: number): Buffer => {
  const finText = 0x81
  if (length < 126) return Buffer.from([finText, length])
  if (length < 65_536) {
    const head = Buffer.allocUnsafe(4)
    head[0] = finText
    head[1] = 126
    head.writeUInt16BE(length, 2)
    return head
  }
  const head = Buffer.allocUnsafe(10)
  head[0] = finText
  head[1] = 127
  head.writeBigUInt64BE(BigInt(length), 2)
  return head
}

/** An event's frame in each vocabulary; `null`: the vocabulary has no form for it (a refusal in A). */
const frames: Record<Vocabulary, WeakMap<WatchEvent, Buffer | null>> = { a: new WeakMap(), b: new WeakMap() }

const frameOf = (vocabulary: Vocabulary, event: WatchEvent): Buffer | null => {
  const cache = frames[vocabulary]
  let frame = cache.get(event)
  if (frame === undefined) {
    frame = Option.match(encodeWatchEvent(vocabulary, event), {
      onNone: () => null,
      onSome: (json) => {
        const payload = Buffer.from(JSON.stringify(json))
        return Buffer.concat([textFrameHead(payload.length), payload])
      }
    })
    cache.set(event, frame)
  }
  return frame
}

/**
 * A stretch of a shared answer's frames, one after another: the frame of its event `i` is
 * `bytes[offsets[i]…offsets[i + 1])`. An answer's frames are made a block at a time, as batches reach it: the
 * first batch of a large answer leaves once its block is made, not once all are.
 */
interface FrameBlock {
  readonly bytes: Buffer
  readonly offsets: Uint32Array
}

/** Events per block: a batch's worth, so that a batch spans at most two. */
const BLOCK = WATCH_QUEUE_LIMIT

const blocks: Record<Vocabulary, WeakMap<ReadonlyArray<WatchEvent>, Array<FrameBlock | undefined>>> = { a: new WeakMap(), b: new WeakMap() }

/** The frames of the answer `events`' block `index` (its events `index * BLOCK…`), made on first use. */
const blockOf = (vocabulary: Vocabulary, events: ReadonlyArray<WatchEvent>, index: number): FrameBlock => {
  const cache = blocks[vocabulary]
  let made = cache.get(events)
  if (made === undefined) {
    made = []
    cache.set(events, made)
  }
  let block = made[index]
  if (block === undefined) {
    const each = events.slice(index * BLOCK, (index + 1) * BLOCK).map((event) => frameOf(vocabulary, event))
    const offsets = new Uint32Array(each.length + 1)
    for (const [i, frame] of each.entries()) offsets[i + 1] = (offsets[i] ?? 0) + (frame?.length ?? 0)
    const bytes = Buffer.allocUnsafe(offsets[each.length] ?? 0)
    for (const [i, frame] of each.entries()) frame?.copy(bytes, offsets[i])
    block = { bytes, offsets }
    made[index] = block
  }
  return block
}

/**
 * Appends to `out` the frames of `run`'s events in `vocabulary` (possibly none): one slice of a shared
 * answer's frames, or each event's frame, as it is (a batch of large values is not copied into one buffer).
 */
export const appendFrames = (vocabulary: Vocabulary, run: EventRun, out: Array<Buffer>): void => {
  if (run.shared) {
    for (let index = Math.floor(run.start / BLOCK); index * BLOCK < run.end; index++) {
      const { bytes, offsets } = blockOf(vocabulary, run.events, index)
      const from = Math.max(run.start - index * BLOCK, 0)
      const to = Math.min(run.end - index * BLOCK, BLOCK)
      const slice = bytes.subarray(offsets[from], offsets[to])
      if (slice.length > 0) out.push(slice)
    }
    return
  }
  for (let i = run.start; i < run.end; i++) {
    const event = run.events[i]
    const frame = event === undefined ? null : frameOf(vocabulary, event)
    if (frame !== null) out.push(frame)
  }
}
