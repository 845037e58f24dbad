import { Data, Effect, Option, Queue, Result, type Schedule, Stream } from "effect"
import type { HttpClient } from "effect/http"
import { HttpClientRequest } from "effect/http"
import { Socket } from "effect/socket"
import { watching } from "../api/Watching.ts"
import type { ChannelId } from "../domain/Identifier.ts"
import { contains } from "../domain/Range.ts"
import type { ChannelSelector } from "../domain/Selector.ts"
import type { Value } from "../domain/Value.ts"
import type { WatchEvent, WatchRegistration, WatchTarget } from "../domain/Watch.ts"
import type { FetchResultsInA } from "../vocabulary/a/index.ts"
import type { Vocabulary } from "../vocabulary/ChannelTagBody.ts"
import { decodeWatchServerFrame, encodeWatchFrame } from "../vocabulary/WatchFrame.ts"
import { BadRequest, type ClientError, type GatewayError, statusError, Transport } from "./ClientError.ts"
import { type Connection, messageOf, urlOf } from "./Requests.ts"

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

/** The socket closed or could not be opened: opened again on the reconnection schedule. */
class Disconnected extends Data.TaggedError("Disconnected")<{ readonly reason: string }> {}

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
  readonly getters: (selectors: ReadonlyArray<ChannelSelector>) => Effect.Effect<ReadonlyArray<{ readonly id: ChannelId }>, ClientError>
  readonly fetch: (selectors: ReadonlyArray<ChannelSelector>) => Effect.Effect<FetchResultsInA, ClientError>
}

const decoder = new TextDecoder()

/** One frame of the server, as the event it says; a refusal of our registration is the server's 400. */
const readFrame = (vocabulary: Vocabulary, data: string | Uint8Array): Result.Result<WatchEvent, ClientError> => {
  const text = typeof data === "string" ? data : decoder.decode(data)
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return Result.fail(new Transport({ message: `the watch socket sent a frame that is not JSON: ${text.slice(0, 200)}` }))
  }
  const frame = decodeWatchServerFrame(vocabulary, json)
  if (Result.isFailure(frame)) return Result.fail(new Transport({ message: `the watch socket sent an unreadable frame: ${frame.failure.message}` }))
  const event = frame.success
  return event._tag === "FrameRefused" ? Result.fail(new BadRequest({ status: 400, message: event.message })) : Result.succeed(event)
}

/**
 * Why the socket did not open. A WebSocket (a browser's) does not tell the status of a refused upgrade:
 * a plain GET of the same route does, for the token (401 or 403, with the gateway's message: the gateway
 * checks the token and its `watch` right before it answers such a GET 426); anything else is a gap to
 * reconnect after.
 */
const refusal = (sources: WatchSources, url: string): Effect.Effect<never, Disconnected | GatewayError> =>
  Effect.gen(function*() {
    const response = yield* sources.http.execute(HttpClientRequest.get(url, { headers: { authorization: `Bearer ${sources.connection.token}` } })).pipe(
      Effect.mapError((error) => new Disconnected({ reason: error.message }))
    )
    if (response.status !== 401 && response.status !== 403) {
      return yield* Effect.fail(new Disconnected({ reason: `the watch socket did not open (a plain GET answers ${response.status})` }))
    }
    const text = yield* Effect.orElseSucceed(response.text, () => "")
    return yield* Effect.fail(statusError(response.status, messageOf(text)))
  })

/** Opens the socket, registers, and queues its events until the scope closes; the queue fails when the socket does. */
const open = (sources: WatchSources, frame: string) =>
  Effect.gen(function*() {
    const url = urlOf(sources.connection, watching.watch_channels.path, { vocabulary: sources.vocabulary, auth: sources.connection.token })
    const socket = yield* Socket.makeWebSocket(url)
    const reader = yield* socket.reader.pipe(Effect.catch(() => refusal(sources, url)))
    const writer = yield* socket.writer
    yield* writer.write(frame).pipe(Effect.mapError((error) => new Disconnected({ reason: error.message })))
    const events = yield* Queue.unbounded<WatchEvent, ClientError | Disconnected>()
    yield* reader.pull.pipe(
      Effect.mapError((error) => new Disconnected({ reason: error.message })),
      Effect.flatMap((batch) => Effect.forEach(batch, (data) => Effect.fromResult(readFrame(sources.vocabulary, data)))),
      Effect.flatMap((read) => Queue.offerAll(events, read)),
      Effect.forever,
      Effect.catch((error) => Queue.fail(events, error)),
      Effect.forkScoped
    )
    return events
  })

/** A value the target delivers. */
const passes = (target: WatchTarget, value: Value): boolean =>
  target.values._tag === "Always" || (target.values._tag === "InRange" && contains(target.values.range, value))

/** What a target watches now, over REST: its channels, and their values it delivers. */
const currently = (sources: WatchSources, target: WatchTarget) =>
  Effect.gen(function*() {
    const channels = yield* sources.getters([target.selector])
    const results = target.values._tag === "Never" ? [] : yield* sources.fetch([target.selector])
    const values = results.flatMap(({ key, result }) =>
      Result.isSuccess(result) && Option.isSome(result.success) && passes(target, result.success.value)
        // A value is a getter's: its key is the getter's id (a service's id keys only a NoSuchService).
        ? [{ _tag: "ValueChanged", channel: key as ChannelId, value: result.success.value } as const]
        : []
    )
    return { channels: channels.map((c) => c.id), values }
  })

/**
 * After a gap, on a socket registered again: the current set and values over REST, against what the app
 * was told (`known`: the channels announced and not removed). What the socket sent meanwhile follows; a
 * channel whose value it sent is not given its REST value, which may be older.
 */
const resync = (sources: WatchSources, registration: WatchRegistration, known: ReadonlySet<ChannelId>, events: Queue.Dequeue<WatchEvent, ClientError | Disconnected>) =>
  Effect.gen(function*() {
    const now = yield* Effect.forEach(registration, (target) => currently(sources, target)).pipe(
      Effect.catchIf(
        (error) => error._tag === "Transport" || error._tag === "Unavailable",
        (error) => Effect.fail(new Disconnected({ reason: error.message }))
      )
    )
    const arrived = yield* Queue.clear(events)
    const sentValues = new Set(arrived.flatMap((event) => (event._tag === "ValueChanged" ? [event.channel] : [])))
    const watched = new Set(now.flatMap((current, i) => (registration[i]?.topology === true ? current.channels : [])))
    const removed = [...known].filter((channel) => !watched.has(channel)).map((channel) => ({ _tag: "ChannelRemoved", channel }) as const)
    const added = [...watched].map((channel) => ({ _tag: "ChannelAdded", channel }) as const)
    const valued = new Set<ChannelId>()
    const values = now.flatMap((current) => current.values).filter((event) => {
      if (sentValues.has(event.channel) || valued.has(event.channel)) return false
      valued.add(event.channel)
      return true
    })
    return [resynced, ...removed, ...added, ...values, ...arrived]
  })

/** The reconnecting, resynchronizing watch of `registration`; fails before connecting if the vocabulary cannot say it. */
export const watchStream = (sources: WatchSources, registration: WatchRegistration): Stream.Stream<ClientWatchEvent, ClientError> =>
  Stream.unwrap(Effect.gen(function*() {
    const frame = JSON.stringify(yield* Effect.fromResult(encodeWatchFrame(sources.vocabulary, registration)))
    // The channels the app was told of (joined, not left), across connections; `connected`: a gap follows.
    const known = new Set<ChannelId>()
    let connected = false
    const admitted = (event: ClientWatchEvent): ReadonlyArray<ClientWatchEvent> => {
      if (event._tag === "ChannelAdded") return known.has(event.channel) ? [] : [known.add(event.channel) && event]
      if (event._tag === "ChannelRemoved") return known.delete(event.channel) ? [event] : []
      return [event]
    }
    const session = Stream.unwrap(Effect.gen(function*() {
      const events = yield* open(sources, frame)
      const lead = connected ? yield* resync(sources, registration, known, events) : []
      connected = true
      return Stream.concat(Stream.fromArray(lead), Stream.fromQueue(events))
    }))
    return session.pipe(
      Stream.flatMap((event) => Stream.fromArray(admitted(event))),
      Stream.catchIf((error): error is ClientError => error._tag !== "Disconnected", (error) => Stream.make<[Fatal]>({ _tag: "Fatal", error })),
      Stream.retry(sources.reconnect),
      Stream.catchTag("Disconnected", (error) => Stream.fail(new Transport({ message: `the watch socket dropped: ${error.reason}` }))),
      Stream.mapEffect((item) => (item._tag === "Fatal" ? Effect.fail(item.error) : Effect.succeed(item))),
      Stream.provideService(Socket.WebSocketConstructor, sources.webSocket)
    )
  }))
