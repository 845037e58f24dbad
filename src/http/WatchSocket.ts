import type { IncomingMessage } from "node:http"
import { Effect, Option, Result, type Scope } from "effect"
import { HttpServerRequest } from "effect/http"
import type { WebSocket } from "ws"
import type { WatchEvent, WatchRegistration } from "../domain/Watch.ts"
import { Watch, type WatchSession } from "../gateway/Watch.ts"
import { WATCH_QUEUE_LIMIT } from "../gateway/WatchQueue.ts"
import type { Vocabulary } from "../vocabulary/ChannelTagBody.ts"
import { decodeWatchFrame, encodeWatchEvent, sniffWatchVocabulary } from "../vocabulary/WatchFrame.ts"
import { parse as parseJsonBytes } from "./JsonBody.ts"
import { WebSockets } from "./KeepAliveWebSocket.ts"

/** Close code for a client that fell too far behind (RFC 6455 "try again later"). */
export const TOO_SLOW = 1013
const tooSlowReason = `too slow: fell over ${WATCH_QUEUE_LIMIT} events behind`

/**
 * Answers to malformed frames are sent at once, outside the event queue; a client that keeps sending
 * them without reading the answers is closed once this many bytes wait for it.
 */
export const ERROR_BACKLOG_BYTES = 64 * 1024

/**
 * Each event is encoded once per vocabulary, whatever the number of sockets it goes to: the watch hub
 * hands every watcher of a value the same event object. `null`: the vocabulary has no form for it.
 */
const encoded: Record<Vocabulary, WeakMap<WatchEvent, string | null>> = { a: new WeakMap(), b: new WeakMap() }

const encode = (vocabulary: Vocabulary, event: WatchEvent): string | null => {
  const cache = encoded[vocabulary]
  let text = cache.get(event)
  if (text === undefined) {
    text = Option.match(encodeWatchEvent(vocabulary, event), { onNone: () => null, onSome: (json) => JSON.stringify(json) })
    cache.set(event, text)
  }
  return text
}

/** A frame as a registration, or the readable reason it is not one. Text or binary, it must be UTF-8 JSON. */
const readFrame = (
  frame: string | Uint8Array,
  forced: Vocabulary | undefined
): Result.Result<{ readonly vocabulary: Vocabulary; readonly registration: WatchRegistration }, string> => {
  const bytes = typeof frame === "string" ? new TextEncoder().encode(frame) : frame
  const json = parseJsonBytes(bytes.slice().buffer)
  if (Result.isFailure(json)) return Result.fail(json.failure.message)
  if (Option.isNone(json.success)) return Result.fail("body: expected a watch registration, got an empty frame")
  const vocabulary = forced ?? sniffWatchVocabulary(json.success.value)
  return Result.mapBoth(decodeWatchFrame(json.success.value, vocabulary), {
    onFailure: (error) => error.message,
    onSuccess: (registration) => ({ vocabulary, registration })
  })
}

/** Sends a batch of events; done when the last one has left the process (so a stalled client fills our queue, not Node's buffers). */
const sendBatch = (ws: WebSocket, vocabulary: Vocabulary, batch: ReadonlyArray<WatchEvent>) =>
  Effect.callback<void>((resume) => {
    const texts: Array<string> = []
    for (const event of batch) {
      const text = encode(vocabulary, event)
      if (text !== null) texts.push(text)
    }
    const last = texts.length - 1
    if (last < 0) return resume(Effect.void)
    texts.forEach((text, i) => ws.send(text, i === last ? () => resume(Effect.void) : undefined))
  })

/** Moves the session's events to the socket until the client falls too far behind, then closes it with 1013. */
const forward = (ws: WebSocket, vocabulary: Vocabulary, session: WatchSession) =>
  Effect.forever(Effect.flatMap(session.take, (batch) => sendBatch(ws, vocabulary, batch))).pipe(
    Effect.catchTag("WatcherOverflow", () => Effect.sync(() => ws.close(TOO_SLOW, tooSlowReason)))
  )

/**
 * Serves one watch socket (wire.md §7) until the client closes it: the first frame that reads as a
 * registration opens the watch, each later one replaces it, a malformed one is answered
 * `{"Error": …}` and changes nothing. Everything held for the socket belongs to the caller's scope.
 */
export const serveWatchSocket = (forced: Vocabulary | undefined) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const watch = yield* Watch
    const socket = yield* request.upgrade
    const reader = yield* socket.reader
    const ws = (yield* WebSockets).of(request.source as IncomingMessage)
    if (ws === undefined) return yield* Effect.die(new Error("the upgraded connection is not a KeepAliveWebSocket"))
    const scope = yield* Effect.scope
    let session: WatchSession | undefined

    const onFrame = (frame: string | Uint8Array): Effect.Effect<void, never, Scope.Scope> => {
      const read = readFrame(frame, forced)
      if (Result.isFailure(read)) {
        return Effect.sync(() =>
          ws.bufferedAmount > ERROR_BACKLOG_BYTES
            ? ws.close(TOO_SLOW, "too slow: not reading the answers to its frames")
            : ws.send(JSON.stringify({ Error: read.failure }))
        )
      }
      const { vocabulary, registration } = read.success
      if (session !== undefined) return session.replace(registration)
      // The first registration fixes the socket's vocabulary: later frames are read in it.
      forced = vocabulary
      return Effect.gen(function*() {
        const opened = yield* watch.open(registration)
        session = opened
        yield* Effect.forkIn(forward(ws, vocabulary, opened), scope)
      })
    }

    // The loop ends when the client closes the socket (or the keep-alive drops it): a read error.
    yield* Effect.forever(Effect.flatMap(reader.pull, (frames) => Effect.forEach(frames, onFrame, { discard: true }))).pipe(
      Effect.catchTag("SocketError", () => Effect.void)
    )
  })
