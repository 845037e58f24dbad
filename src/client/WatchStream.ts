import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Result from "effect/Result"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import type { HttpClient } from "effect/http"
import { HttpClientRequest } from "effect/http"
import { Socket } from "effect/socket"
import { watching } from "../api/Watching.ts"
import type { ChannelId } from "../domain/Identifier.ts"
import type { ChannelSelector } from "../domain/Selector.ts"
import type { WatchEvent, WatchRegistration } from "../domain/Watch.ts"
import type { Vocabulary } from "../vocabulary/ChannelTagBody.ts"
import { parseJson } from "../vocabulary/common/JsonText.ts"
import { decodeWatchServerFrame, encodeWatchFrame } from "../vocabulary/WatchFrame.ts"
import { BadRequest, type ClientError, type GatewayError, statusError, Transport } from "./ClientError.ts"
import { bearerHeader, type Connection, messageOf, tokenFor, urlOf } from "./Requests.ts"
import { transportFailure } from "./TransportFailure.ts"
import { watchHandshake } from "./WatchHandshake.ts"

/**
 * The watch of the client: the watch socket's events, read in its vocabulary, on a socket opened again
 * after it drops. After a gap the stream says `Resynced`, then what changed meanwhile (channels that
 * left and joined the watched set) and the current value of every watched channel, so an app's view is
 * never silently stale.
 */

/** The stream was reconnected: what follows brings the app's view up to date. */
export interface Resynced {
  readonly _tag: "Resynced"
}

export type ClientWatchEvent = WatchEvent | Resynced

const resynced: Resynced = { _tag: "Resynced" }

/** The socket is open and registered: the watch's events follow (after a gap, from `Resynced`). */
export interface Connected {
  readonly _tag: "Connected"
}

/** The socket dropped or did not open, and why; the next attempt is `retryInMs` from now. */
export interface Disconnected {
  readonly _tag: "Disconnected"
  readonly reason: string
  readonly retryInMs: number
}

/** What a watch says of its connection, when asked to (`connectionEvents: true`). */
export type ConnectionEvent = Connected | Disconnected

export interface WatchOptions {
  /** Say `Connected` and `Disconnected` among the events (by default the events are the watch's alone). */
  readonly connectionEvents?: boolean
}

/** What a watch with `options` gives. */
export type WatchItem<O extends WatchOptions> = O extends { readonly connectionEvents: true } ? ClientWatchEvent | ConnectionEvent : ClientWatchEvent

/** The socket closed or could not be opened: opened again on the reconnection schedule. */
class SocketDown extends Data.TaggedError("SocketDown")<{ readonly reason: string }> {}

/** A failure that ends the watch, carried past the reconnection as an element (which retries every failure). */
interface Fatal {
  readonly _tag: "Fatal"
  readonly error: ClientError
}

/** What the client's REST side answers, as the watch needs it. */
export interface WatchSources {
  readonly http: HttpClient.HttpClient
  readonly connection: Connection
  readonly vocabulary: Vocabulary
  /** When to open the socket again after it drops; once it gives up, the watch fails with `Transport`. */
  readonly reconnect: Schedule.Schedule<unknown, unknown>
  readonly webSocket: Socket.WebSocketConstructor["Service"]
  /** Whether `webSocket` sends handshake headers (the token in `Authorization`), or the token goes as a subprotocol. */
  readonly handshakeHeaders: boolean
  readonly getters: (selectors: ReadonlyArray<ChannelSelector>) => Effect.Effect<ReadonlyArray<{ readonly id: ChannelId }>, ClientError>
}

const decoder = new TextDecoder()

/** One frame of the server, as the event it says; a refusal of our registration is the server's 400. */
const readFrame = (vocabulary: Vocabulary, data: string | Uint8Array): Result.Result<WatchEvent, ClientError> => {
  const text = typeof data === "string" ? data : decoder.decode(data)
  const json = parseJson(text)
  if (Result.isFailure(json)) return Result.fail(new Transport({ reason: "Unreadable", message: `the watch socket sent a frame that is not JSON: ${text.slice(0, 200)}` }))
  const frame = decodeWatchServerFrame(vocabulary, json.success)
  if (Result.isFailure(frame)) return Result.fail(new Transport({ reason: "Unreadable", message: `the watch socket sent an unreadable frame: ${frame.failure.message}` }))
  const event = frame.success
  return event._tag === "FrameRefused" ? Result.fail(new BadRequest({ status: 400, message: event.message })) : Result.succeed(event)
}

/**
 * Why the socket did not open. A WebSocket (a browser's) does not tell the status of a refused upgrade:
 * a plain GET of the same route does, for the token (401 or 403, with the gateway's message: the gateway
 * checks the token and its `watch` right before it answers such a GET 426); anything else is a gap to
 * reconnect after.
 */
const refusal = (sources: WatchSources, token: Option.Option<string>, url: string): Effect.Effect<never, SocketDown | GatewayError> =>
  Effect.gen(function*() {
    const response = yield* sources.http.execute(HttpClientRequest.get(url, { headers: bearerHeader(token) })).pipe(
      Effect.mapError((error) => new SocketDown({ reason: transportFailure(`GET ${url}`, error).message }))
    )
    if (response.status !== 401 && response.status !== 403) {
      return yield* Effect.fail(new SocketDown({ reason: `the watch socket did not open (a plain GET answers ${response.status})` }))
    }
    const text = yield* Effect.orElseSucceed(response.text, () => "")
    return yield* Effect.fail(statusError(response.status, messageOf(text)))
  })

/** Opens the socket, registers, and queues its events until the scope closes; the queue fails when the socket does. */
const open = (sources: WatchSources, token: Option.Option<string>, frame: string) =>
  Effect.gen(function*() {
    const url = urlOf(sources.connection, watching.watch_channels.path, { vocabulary: sources.vocabulary })
    const socket = yield* Socket.makeWebSocket(url, watchHandshake(token, sources.handshakeHeaders))
    const reader = yield* socket.reader.pipe(Effect.catch(() => refusal(sources, token, url)))
    const writer = yield* socket.writer
    yield* writer.write(frame).pipe(Effect.mapError((error) => new SocketDown({ reason: error.message })))
    const events = yield* Queue.unbounded<WatchEvent, ClientError | SocketDown>()
    yield* reader.pull.pipe(
      Effect.mapError((error) => new SocketDown({ reason: error.message })),
      Effect.flatMap((batch) => Effect.forEach(batch, (data) => Effect.fromResult(readFrame(sources.vocabulary, data)))),
      Effect.flatMap((read) => Queue.offerAll(events, read)),
      Effect.forever,
      Effect.catch((error) => Queue.fail(events, error)),
      Effect.forkScoped
    )
    return events
  })

/** The channels the topology targets of `registration` watch now, over REST. */
const watchedNow = (sources: WatchSources, registration: WatchRegistration) =>
  sources.getters(registration.flatMap((target) => (target.topology ? [target.selector] : []))).pipe(
    Effect.map((channels) => new Set(channels.map((channel) => channel.id))),
    Effect.catchIf(
      (error) => error._tag === "Transport" || error._tag === "Unavailable",
      (error) => Effect.fail(new SocketDown({ reason: error.message }))
    )
  )

/** The removal of each of `channels` that `watched` lacks. */
const leaving = (channels: ReadonlyArray<ChannelId>, watched: ReadonlySet<ChannelId>): ReadonlyArray<WatchEvent> =>
  channels.flatMap((channel) => (watched.has(channel) ? [] : [{ _tag: "ChannelRemoved", channel } as const]))

/**
 * After a gap, on a socket registered again with current values asked for every target: the registration
 * itself brings, per channel in order, the addition of every watched channel and then its current value,
 * never older than a value the socket sent before (docs/reference.md §7); they pass as they come, and
 * `admitted` drops the additions the app already had. No value is read over REST, so none can be older
 * than one the socket sent, and none changed meanwhile is missed.
 *
 * A registration does not announce what is no longer watched, and nothing marks the end of what it
 * announces: removals of the channels the app was told of (`known`) come from the REST list of the
 * watched getters, asked after the frame was sent. A channel missing from it is gone (should it come
 * back before the registration took effect, the socket announces it after the removal, and the view
 * ends right). A channel in it may still have left before the gateway applied the frame, if it answered
 * the list first: the socket's first event proves the registration in force (only a registration
 * sends events), and a second list, asked after that event, settles those channels. The one case left
 * open: a socket that sends nothing at all (its set was empty on registration and stays quiet) reports
 * such a channel removed only with its first event, as nothing else can tell its registration in force.
 */
const resync = (
  sources: WatchSources,
  registration: WatchRegistration,
  known: ReadonlySet<ChannelId>,
  events: Queue.Dequeue<WatchEvent, ClientError | SocketDown>
) =>
  Effect.gen(function*() {
    const told = [...known]
    // Nothing announced (no topology, or an empty set): nothing can have left.
    if (told.length === 0) return Stream.concat(Stream.make(resynced), Stream.fromQueue(events))
    const listed = yield* watchedNow(sources, registration)
    const unsettled = told.filter((channel) => listed.has(channel))
    const settled = unsettled.length === 0 ? Stream.empty : Stream.unwrap(Effect.gen(function*() {
      const first = yield* Queue.take(events)
      const inForce = yield* watchedNow(sources, registration)
      return Stream.fromArray([...leaving(unsettled, inForce), first])
    }))
    return Stream.fromArray<ClientWatchEvent>([resynced, ...leaving(told, listed)]).pipe(
      Stream.concat(settled),
      Stream.concat(Stream.fromQueue(events))
    )
  })

/**
 * The reconnecting, resynchronizing watch of `registration`; fails before connecting if the vocabulary
 * cannot say it, or the client has no token.
 */
export const watchStream = (
  sources: WatchSources,
  registration: WatchRegistration,
  connectionEvents: boolean
): Stream.Stream<ClientWatchEvent | ConnectionEvent, ClientError> =>
  Stream.unwrap(Effect.gen(function*() {
    const token = yield* Effect.fromResult(tokenFor(sources.connection, watching.watch_channels))
    const frameOf = (targets: WatchRegistration) => Effect.map(Effect.fromResult(encodeWatchFrame(sources.vocabulary, targets)), (json) => JSON.stringify(json))
    const first = yield* frameOf(registration)
    // Whatever the app asked for its first connection, a later one asks for the current values (`resync`).
    const again = yield* frameOf(registration.map((target) => ({ ...target, initialValues: true })))
    // The channels the app was told of (joined, not left), across connections; `connected`: a gap follows.
    const known = new Set<ChannelId>()
    let connected = false
    const admitted = (event: ClientWatchEvent | ConnectionEvent): ReadonlyArray<ClientWatchEvent | ConnectionEvent> => {
      if (event._tag === "ChannelAdded") return known.has(event.channel) ? [] : [known.add(event.channel) && event]
      if (event._tag === "ChannelRemoved") return known.delete(event.channel) ? [event] : []
      return [event]
    }
    const session = Stream.unwrap(Effect.gen(function*() {
      const resuming = connected
      const events = yield* open(sources, token, resuming ? again : first)
      connected = true
      const watched = resuming ? yield* resync(sources, registration, known, events) : Stream.fromQueue(events)
      return connectionEvents ? Stream.concat(Stream.make<[Connected]>({ _tag: "Connected" }), watched) : watched
    }))
    // Each attempt's wait, said as it begins: the schedule's delay, with the reason the socket went down.
    const downs = yield* Queue.unbounded<Disconnected>()
    const reconnect = connectionEvents
      ? Schedule.modifyDelay(sources.reconnect, ({ input, duration }) =>
        Effect.as(
          Queue.offer(downs, { _tag: "Disconnected", reason: input instanceof SocketDown ? input.reason : String(input), retryInMs: Duration.toMillis(duration) }),
          duration
        ))
      : sources.reconnect
    const watch = session.pipe(
      Stream.flatMap((event) => Stream.fromArray(admitted(event))),
      Stream.catchIf((error): error is ClientError => error._tag !== "SocketDown", (error) => Stream.make<[Fatal]>({ _tag: "Fatal", error })),
      Stream.retry(reconnect),
      Stream.catchTag("SocketDown", (error) => Stream.fail(new Transport({ reason: "Dropped", message: `the watch socket dropped: ${error.reason}` }))),
      Stream.mapEffect((item) => (item._tag === "Fatal" ? Effect.fail(item.error) : Effect.succeed(item))),
      Stream.provideService(Socket.WebSocketConstructor, sources.webSocket)
    )
    return connectionEvents ? Stream.merge(watch, Stream.fromQueue(downs), { haltStrategy: "left" }) : watch
  }))
