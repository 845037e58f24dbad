import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import { FetchHttpClient, HttpClient } from "effect/http"
import { Socket } from "effect/socket"
import type { Tag } from "../domain/Identifier.ts"
import type { SendTarget } from "../domain/Request.ts"
import type { ChannelSelector, ServiceSelector } from "../domain/Selector.ts"
import type { WatchRegistration } from "../domain/Watch.ts"
import { resultsInA } from "../vocabulary/a/index.ts"
import type { Vocabulary } from "../vocabulary/ChannelTagBody.ts"
import type { ClientError } from "./ClientError.ts"
import { type DeprecationNotice, once } from "./DeprecationNotice.ts"
import { type CreatedToken, defaultTokenPage, type NewToken, type TokenView } from "../api/Tokens.ts"
import type { Health } from "../api/Health.ts"
import { healthOperation, type Operation, type Operations, operations, tokenOperations } from "./Operations.ts"
import { type Connection, send } from "./Requests.ts"
import { type ChannelView, type FetchResultsView, type SendResultsView, type ServiceView, type Viewing, viewings } from "./Views.ts"
import { type WatchItem, type WatchOptions, watchStream } from "./WatchStream.ts"
import { HandshakeHeaders } from "./WatchHandshake.ts"

export type { ChannelView, FetchResultsView, SendResultsView, ServiceView }

export interface ClientOptions extends Omit<Connection, "deprecated"> {
  /** The wire vocabulary the client speaks; what it answers is the same in both. */
  readonly vocabulary: Vocabulary
  /** When the watch socket is opened again after it drops (default: 100 ms doubling, at most 5 s apart, forever). */
  readonly reconnect?: Schedule.Schedule<unknown, unknown>
  /**
   * Told once, at the first answer that says the vocabulary is deprecated (`Deprecation`, `Sunset`,
   * `Link`); by default, one line on the console.
   */
  readonly onDeprecation?: (notice: DeprecationNotice) => void
}

/**
 * The gateway in canonical terms. Reads without selectors read everything; a selector, value or
 * registration the chosen vocabulary cannot say fails with `Unexpressible` before anything is sent.
 */
export interface GatewayClientShape {
  readonly vocabulary: Vocabulary
  readonly services: (selectors?: ReadonlyArray<ServiceSelector>) => Effect.Effect<ReadonlyArray<ServiceView>, ClientError>
  readonly getters: (selectors?: ReadonlyArray<ChannelSelector>) => Effect.Effect<ReadonlyArray<ChannelView>, ClientError>
  readonly setters: (selectors?: ReadonlyArray<ChannelSelector>) => Effect.Effect<ReadonlyArray<ChannelView>, ClientError>
  /** The current value of every getter matched, asked of its device. */
  readonly fetch: (selectors?: ReadonlyArray<ChannelSelector>) => Effect.Effect<FetchResultsView, ClientError>
  readonly send: (targets: ReadonlyArray<SendTarget>) => Effect.Effect<SendResultsView, ClientError>
  /** Tags added to (or removed from) what matches now; answers how many matched. */
  readonly tagServices: (selectors: ReadonlyArray<ServiceSelector>, tags: ReadonlyArray<Tag>) => Effect.Effect<number, ClientError>
  readonly untagServices: (selectors: ReadonlyArray<ServiceSelector>, tags: ReadonlyArray<Tag>) => Effect.Effect<number, ClientError>
  readonly tagChannels: (selectors: ReadonlyArray<ChannelSelector>, tags: ReadonlyArray<Tag>) => Effect.Effect<number, ClientError>
  readonly untagChannels: (selectors: ReadonlyArray<ChannelSelector>, tags: ReadonlyArray<Tag>) => Effect.Effect<number, ClientError>
  /** The tokens the client's token manages (docs/auth.md): its user's, within its scope; every page of them. */
  readonly tokens: () => Effect.Effect<ReadonlyArray<TokenView>, ClientError>
  /** A new token within the client's token's reach, rights and expiry; its secret is in the answer, once. */
  readonly createToken: (token: NewToken) => Effect.Effect<CreatedToken, ClientError>
  readonly revokeToken: (id: number) => Effect.Effect<void, ClientError>
  /** Whether the gateway is up, and what needs its operator's attention; needs no token (and is sent none). */
  readonly health: () => Effect.Effect<Health, ClientError>
  /**
   * The events of a watch, on a socket opened again whenever it drops; after a gap, `Resynced`, then the
   * channels that left and joined meanwhile and the current value of every watched channel. With
   * `connectionEvents: true`, `Connected` and `Disconnected` (why, and when the next attempt is) among them.
   */
  readonly watch: <const O extends WatchOptions = {}>(registration: WatchRegistration, options?: O) => Stream.Stream<WatchItem<O>, ClientError>
}

const defaultReconnect: Schedule.Schedule<unknown, unknown> = Schedule.min([Schedule.exponential("100 millis"), Schedule.spaced("5 seconds")])

/** What the client runs on: the platform's HTTP client and WebSocket, and whether that WebSocket sends handshake headers. */
export interface ClientPlatform {
  readonly http: HttpClient.HttpClient
  readonly webSocket: Socket.WebSocketConstructor["Service"]
  readonly handshakeHeaders: boolean
}

/** The platform of the context, as the client needs it. */
export const platformFrom = Effect.gen(function*() {
  return {
    http: yield* HttpClient.HttpClient,
    webSocket: yield* Socket.WebSocketConstructor,
    handshakeHeaders: yield* HandshakeHeaders
  } satisfies ClientPlatform
})

/**
 * The client, built at once on a platform that each request asks for when it runs: the Promise face
 * builds its platform's layer on the first call, not here.
 */
export const clientOf = (options: ClientOptions, platform: Effect.Effect<ClientPlatform>): GatewayClientShape => {
  const speaking = operations[options.vocabulary]
  const connection: Connection = {
    url: options.url,
    token: options.token,
    timeoutMs: options.timeoutMs,
    deprecated: once(options.onDeprecation ?? ((notice) => console.warn(notice.message)))
  }
  const call = <B, A>(operation: Operation<B, A>, body: Option.Option<B>) =>
    Effect.flatMap(platform, ({ http }) => send(http, connection, operation, body))
  const read = <B, A>(operation: Operation<B, A>) => (body?: B) => call(operation, Option.fromUndefinedOr(body))
  const tagging = <S>(operation: Operation<{ readonly selectors: ReadonlyArray<S>; readonly tags: ReadonlyArray<Tag> }, number>) =>
  (selectors: ReadonlyArray<S>, tags: ReadonlyArray<Tag>) => call(operation, Option.some({ selectors, tags }))
  // Services and channels read as the vocabulary says them, into the views (None where A says nothing).
  const listings = <S, C>(listed: Operations<S, C>, viewing: Viewing<S, C>) => ({
    services: (selectors?: ReadonlyArray<ServiceSelector>) => Effect.map(read(listed.services)(selectors), (ss) => ss.map(viewing.service)),
    getters: (selectors?: ReadonlyArray<ChannelSelector>) => Effect.map(read(listed.getters)(selectors), (cs) => cs.map(viewing.channel)),
    setters: (selectors?: ReadonlyArray<ChannelSelector>) => Effect.map(read(listed.setters)(selectors), (cs) => cs.map(viewing.channel))
  })
  const { services, getters, setters } = options.vocabulary === "a"
    ? listings(operations.a, viewings.a)
    : listings(operations.b, viewings.b)
  // Page after page until one comes short: the gateway answers a listing of tokens in pages.
  const tokensFrom = (after: number, listed: ReadonlyArray<TokenView>): Effect.Effect<ReadonlyArray<TokenView>, ClientError> =>
    Effect.flatMap(call(tokenOperations.list({ limit: defaultTokenPage, after }), Option.none()), (page) => {
      const last = page.at(-1)
      const all = [...listed, ...page]
      return last === undefined || page.length < defaultTokenPage ? Effect.succeed(all) : tokensFrom(last.id, all)
    })
  return {
    vocabulary: options.vocabulary,
    services,
    getters,
    setters,
    fetch: (selectors) => Effect.map(read(speaking.fetch)(selectors), resultsInA),
    send: (targets) => Effect.map(call(speaking.send, Option.some(targets)), resultsInA),
    tagServices: tagging(speaking.tagServices),
    untagServices: tagging(speaking.untagServices),
    tagChannels: tagging(speaking.tagChannels),
    untagChannels: tagging(speaking.untagChannels),
    tokens: () => tokensFrom(0, []),
    createToken: (token) => call(tokenOperations.create, Option.some(token)),
    revokeToken: (id) => call(tokenOperations.revoke, Option.some(id)),
    health: () => call(healthOperation, Option.none()),
    watch: <const O extends WatchOptions = {}>(registration: WatchRegistration, watchOptions?: O) =>
      Stream.unwrap(Effect.map(platform, ({ http, webSocket, handshakeHeaders }) =>
        watchStream({
          http,
          connection,
          vocabulary: options.vocabulary,
          reconnect: options.reconnect ?? defaultReconnect,
          webSocket,
          handshakeHeaders,
          getters
        }, registration, watchOptions?.connectionEvents === true)
      )) as Stream.Stream<WatchItem<O>, ClientError> // the connection events are there exactly when O asks for them
  }
}

/** The client of one gateway, as an Effect service. */
export class GatewayClient extends Context.Service<GatewayClient, GatewayClientShape>()("home-gateway/GatewayClient") {
  /** On the platform's HTTP client and WebSocket: what the app provides. */
  static readonly layer = (options: ClientOptions): Layer.Layer<GatewayClient, never, HttpClient.HttpClient | Socket.WebSocketConstructor> =>
    Layer.effect(GatewayClient, Effect.map(platformFrom, (platform) => clientOf(options, Effect.succeed(platform))))

  /**
   * On `fetch` and the global `WebSocket` (browsers, Node ≥ 22). Vocabulary A's reads with selectors are a
   * GET with a body, which `fetch` cannot send: give `layer` a Node HTTP client for those (docs/client.md).
   */
  static readonly layerFetch = (options: ClientOptions): Layer.Layer<GatewayClient> =>
    GatewayClient.layer(options).pipe(Layer.provide(Layer.merge(FetchHttpClient.layer, Socket.layerWebSocketConstructorGlobal)))
}
