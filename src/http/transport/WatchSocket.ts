import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import type { Socket } from "node:net"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Scope from "effect/Scope"
import { HttpServerRequest } from "effect/http"
import type { WebSocket } from "ws"
import type { WatchRegistration } from "../../domain/Watch.ts"
import { Watch, type WatchSession } from "../../gateway/Watch.ts"
import { WATCH_QUEUE_LIMIT } from "../../gateway/WatchQueue.ts"
import type { Vocabulary } from "../../vocabulary/ChannelTagBody.ts"
import { decodeWatchFrame, sniffWatchVocabulary } from "../../vocabulary/WatchFrame.ts"
import { atSharedImmediate } from "./SharedImmediate.ts"
import { appendFrames } from "./WatchFrames.ts"
import { parse as parseJsonBytes } from "../body/JsonBody.ts"
import { WebSockets } from "./KeepAliveServer.ts"
import { countWatchSocket, type VocabularyLabel } from "../observation/RequestMetrics.ts"
import { RequestNotes } from "../observation/RequestNotes.ts"

/** Close code for a client that fell too far behind (RFC 6455 "try again later"). */
export const TOO_SLOW = 1013
const tooSlowReason = `too slow: fell over ${WATCH_QUEUE_LIMIT} events behind`

/**
 * Answers to malformed frames are sent at once, outside the event queue; a client that keeps sending
 * them without reading the answers is closed once this many bytes wait for it.
 */
export const ERROR_BACKLOG_BYTES = 64 * 1024

/** A frame as a registration, or the readable reason it is not one. Text or binary, it must be UTF-8 JSON. */
const readFrame = (
  frame: string | Uint8Array,
  forced: Vocabulary | undefined
): Result.Result<{ readonly vocabulary: Vocabulary; readonly registration: WatchRegistration }, string> => {
  const bytes = typeof frame === "string" ? new TextEncoder().encode(frame) : frame
  const json = parseJsonBytes(bytes)
  if (Result.isFailure(json)) return Result.fail(json.failure.message)
  if (Option.isNone(json.success)) return Result.fail("body: expected a watch registration, got an empty frame")
  const vocabulary = forced ?? sniffWatchVocabulary(json.success.value)
  return Result.mapBoth(decodeWatchFrame(json.success.value, vocabulary), {
    onFailure: (error) => error.message,
    onSuccess: (registration) => ({ vocabulary, registration })
  })
}

/**
 * Moves the session's events to the socket, in plain callbacks rather than a fiber: per socket and
 * event this is the whole cost of fan-out. Events pushed during one turn of the event loop leave
 * together after it (`atSharedImmediate`), in one write to the connection: a write is a system call, and
 * those calls are most of what a flood of values costs (1,000 watchers of values that change 100 times
 * a second would be 100,000 writes a second, one per value and socket). The busier the gateway, the
 * longer its turns and the more frames each write carries; an event in a quiet moment leaves at once.
 * A batch's frames are bytes made once for every socket (WatchFrames: a shared registration answer's are a
 * slice of one buffer), written to the connection as they are, in one write; `ws` writes the socket's other
 * frames. The next batch goes once
 * the previous one has left the process (the callback of its write), so that a client that stops
 * reading fills its own bounded queue, not Node's buffers. A client that fell too far behind is closed
 * with 1013 (`tooSlow`), also while a batch waits for it: one that never reads again would hold that
 * batch for ever. A batch is at most `WATCH_QUEUE_LIMIT` events: a registration's own events may be many
 * more (WatchQueue), and they wait in the queue, shared with other sockets, rather than as this socket's
 * frames in Node's buffers; each batch goes in a turn of the event loop of its own, so that the other
 * requests are answered between them.
 */
const forward = (
  ws: WebSocket,
  connection: Socket,
  vocabulary: Vocabulary,
  session: WatchSession,
  tooSlow: (reason: string) => void
): void => {
  let sending = false
  let scheduled = false
  /** Whether a batch went in this turn of the event loop (cleared after the turn's I/O). */
  let sentThisTurn = false
  const schedule = () => {
    if (scheduled || sending) return
    scheduled = true
    atSharedImmediate(pump)
  }
  // A write the kernel takes whole calls back before the event loop turns: the next batch then waits for
  // the next turn, or a large registration's batches would all go in one, holding every other request
  // back. A write that waited for the kernel calls back in a later turn: its next batch goes at once.
  const sent = () => {
    sending = false
    if (sentThisTurn) schedule()
    else pump()
  }
  const pump = () => {
    scheduled = false
    if (sending) return
    const frames: Array<Buffer> = []
    // Until a batch has something to send in this vocabulary, or nothing is pending.
    for (let taken = 1; taken > 0 && frames.length === 0;) {
      taken = 0
      while (taken < WATCH_QUEUE_LIMIT) {
        const polled = session.poll(WATCH_QUEUE_LIMIT - taken)
        if (Result.isFailure(polled)) return tooSlow(tooSlowReason)
        // Once the close frame has gone, nothing may follow it.
        if (ws.readyState !== ws.OPEN) return
        const run = polled.success
        if (run === undefined) break
        taken += run.end - run.start
        appendFrames(vocabulary, run, frames)
      }
    }
    const last = frames.length - 1
    if (last < 0) return
    sending = true
    if (!sentThisTurn) {
      sentThisTurn = true
      atSharedImmediate(() => (sentThisTurn = false))
    }
    // One system call for the whole batch, not one per frame. `ws` writes its own frames (pings, pongs,
    // the close, the answers to malformed frames) to the connection at once when asked, never later (it
    // compresses nothing, sends no blob), so that these frames are never cut into by another.
    connection.cork()
    for (const [i, frame] of frames.entries()) connection.write(frame, i === last ? sent : undefined)
    connection.uncork()
  }
  session.listen(() => {
    if (sending && session.overflowed()) return tooSlow(tooSlowReason)
    schedule()
  })
  pump()
}

/**
 * Serves one watch socket (docs/reference.md §7) until the client closes it: the first frame that reads as a
 * registration opens the watch, each later one replaces it, a malformed one is answered
 * `{"Error": …}` and changes nothing. Everything held for the socket belongs to the caller's scope.
 * Each registration is narrowed by `narrow` (the caller's token scope) before it is opened. `client`
 * names the socket in the log (its token's id and address, never the token).
 */
export const serveWatchSocket = (
  forced: Vocabulary | undefined,
  narrow: (registration: WatchRegistration) => WatchRegistration,
  client: string
) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const watch = yield* Watch
    const socket = yield* request.upgrade
    const reader = yield* socket.reader
    const connection = NodeHttpServerRequest.toIncomingMessage(request).socket
    const ws = (yield* WebSockets).of(connection)
    if (ws === undefined) return yield* Effect.die(new Error("the upgraded connection did not come through the KeepAliveServer"))
    const notes = yield* RequestNotes
    notes.upgraded()
    const scope = yield* Effect.scope
    let session: WatchSession | undefined
    let vocabularyOfSocket = forced
    const context = yield* Effect.context<never>()
    // Open sockets, by the vocabulary they registered in (`unknown` until then); counted off when it closes.
    let counted: VocabularyLabel = "unknown"
    countWatchSocket(context, counted, 1)
    yield* Effect.addFinalizer(() => Effect.sync(() => countWatchSocket(context, counted, -1)))

    /** Closes a client that does not keep up, once, saying why in the log (if it cannot even take the close, it is cut once the close grace is over). */
    const tooSlow = (reason: string) => {
      if (ws.readyState !== ws.OPEN) return
      ws.close(TOO_SLOW, reason)
      Effect.runForkWith(context)(Effect.logWarning(`closed the watch socket of ${client} with ${TOO_SLOW}: ${reason}`))
    }

    const onFrame = (frame: string | Uint8Array): Effect.Effect<void> => {
      const read = readFrame(frame, vocabularyOfSocket)
      if (Result.isFailure(read)) {
        return Effect.sync(() =>
          ws.bufferedAmount > ERROR_BACKLOG_BYTES
            ? tooSlow("too slow: not reading the answers to its frames")
            : ws.send(JSON.stringify({ Error: read.failure }))
        )
      }
      const { vocabulary } = read.success
      const registration = narrow(read.success.registration)
      if (session !== undefined) return session.replace(registration)
      // The first registration fixes the socket's vocabulary: later frames are read in it.
      vocabularyOfSocket = vocabulary
      countWatchSocket(context, counted, -1)
      counted = vocabulary
      countWatchSocket(context, counted, 1)
      return Effect.map(Effect.andThen(notes.spoke(vocabulary), Scope.provide(watch.open(registration), scope)), (opened) => {
        session = opened
        forward(ws, connection, vocabulary, opened, tooSlow)
      })
    }

    // The loop ends when the client closes the socket (or the keep-alive drops it): a read error.
    yield* Effect.forever(Effect.flatMap(reader.pull, (frames) => Effect.forEach(frames, onFrame, { discard: true }))).pipe(
      Effect.catchTag("SocketError", () => Effect.void)
    )
  })
