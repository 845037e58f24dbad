import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Stream from "effect/Stream"
import { FetchHttpClient, type HttpClient } from "effect/http"
import { Socket } from "effect/socket"
import type { Health } from "../api/Health.ts"
import type { CreatedToken, NewToken, TokenView } from "../api/Tokens.ts"
import type { Tag } from "../domain/Identifier.ts"
import type { SendTarget } from "../domain/Request.ts"
import type { ChannelSelector, ServiceSelector } from "../domain/Selector.ts"
import type { WatchRegistration } from "../domain/Watch.ts"
import {
  type ChannelView,
  type ClientOptions,
  type FetchResultsView,
  GatewayClient,
  type GatewayClientShape,
  type SendResultsView,
  type ServiceView
} from "./GatewayClient.ts"
import type { ClientError } from "./ClientError.ts"
import type { ClientWatchEvent } from "./WatchStream.ts"

/**
 * The client for apps that do not use Effect: the same implementation (`GatewayClient`), each call a
 * Promise that rejects with the typed error (`error._tag`: "Unauthorized", "BadRequest"…), a watch an
 * `AsyncIterable` (leaving its loop closes the socket).
 */
export interface Client {
  readonly services: (selectors?: ReadonlyArray<ServiceSelector>) => Promise<ReadonlyArray<ServiceView>>
  readonly getters: (selectors?: ReadonlyArray<ChannelSelector>) => Promise<ReadonlyArray<ChannelView>>
  readonly setters: (selectors?: ReadonlyArray<ChannelSelector>) => Promise<ReadonlyArray<ChannelView>>
  readonly fetch: (selectors?: ReadonlyArray<ChannelSelector>) => Promise<FetchResultsView>
  readonly send: (targets: ReadonlyArray<SendTarget>) => Promise<SendResultsView>
  readonly tagServices: (selectors: ReadonlyArray<ServiceSelector>, tags: ReadonlyArray<Tag>) => Promise<number>
  readonly untagServices: (selectors: ReadonlyArray<ServiceSelector>, tags: ReadonlyArray<Tag>) => Promise<number>
  readonly tagChannels: (selectors: ReadonlyArray<ChannelSelector>, tags: ReadonlyArray<Tag>) => Promise<number>
  readonly untagChannels: (selectors: ReadonlyArray<ChannelSelector>, tags: ReadonlyArray<Tag>) => Promise<number>
  readonly tokens: () => Promise<ReadonlyArray<TokenView>>
  readonly createToken: (token: NewToken) => Promise<CreatedToken>
  readonly revokeToken: (id: number) => Promise<void>
  readonly health: () => Promise<Health>
  readonly watch: (registration: WatchRegistration) => AsyncIterable<ClientWatchEvent>
  /** Releases what the client holds (its HTTP connections). */
  readonly close: () => Promise<void>
}

export interface CreateClientOptions extends ClientOptions {
  /** The HTTP client and WebSocket to use; by default `fetch` and the global `WebSocket`. */
  readonly platform?: Layer.Layer<HttpClient.HttpClient | Socket.WebSocketConstructor>
}

export const createClient = (options: CreateClientOptions): Client => {
  const platform = options.platform ?? Layer.merge(FetchHttpClient.layer, Socket.layerWebSocketConstructorGlobal)
  const runtime = ManagedRuntime.make(GatewayClient.layer(options).pipe(Layer.provide(platform)))
  const run = <A>(call: (client: GatewayClientShape) => Effect.Effect<A, ClientError>): Promise<A> =>
    runtime.runPromise(GatewayClient.use(call))
  return {
    services: (selectors) => run((c) => c.services(selectors)),
    getters: (selectors) => run((c) => c.getters(selectors)),
    setters: (selectors) => run((c) => c.setters(selectors)),
    fetch: (selectors) => run((c) => c.fetch(selectors)),
    send: (targets) => run((c) => c.send(targets)),
    tagServices: (selectors, tags) => run((c) => c.tagServices(selectors, tags)),
    untagServices: (selectors, tags) => run((c) => c.untagServices(selectors, tags)),
    tagChannels: (selectors, tags) => run((c) => c.tagChannels(selectors, tags)),
    untagChannels: (selectors, tags) => run((c) => c.untagChannels(selectors, tags)),
    tokens: () => run((c) => c.tokens()),
    createToken: (token) => run((c) => c.createToken(token)),
    revokeToken: (id) => run((c) => c.revokeToken(id)),
    health: () => run((c) => c.health()),
    watch: (registration) =>
      Stream.toAsyncIterable(Stream.unwrap(Effect.map(runtime.contextEffect, (context) =>
        Stream.provideContext(Stream.unwrap(GatewayClient.use((c) => Effect.succeed(c.watch(registration)))), context)
      ))),
    close: () => runtime.dispose()
  }
}
