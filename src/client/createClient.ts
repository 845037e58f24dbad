import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Stream from "effect/Stream"
import { FetchHttpClient, type HttpClient } from "effect/http"
import { Socket } from "effect/socket"
import { type ClientOptions, clientOf, type GatewayClientShape, platformFrom } from "./GatewayClient.ts"
import { RequestTimeout } from "./RequestTimeout.ts"
import type { WatchItem, WatchOptions } from "./WatchStream.ts"
import type { ChannelId } from "../domain/Identifier.ts"
import type { ChannelSelector } from "../domain/Selector.ts"
import type { Value } from "../domain/Value.ts"
import type { WatchRegistration } from "../domain/Watch.ts"
import type { ClientError } from "./ClientError.ts"
import { valueMaps, valueRegistration } from "./ValueSubscription.ts"

/** What a call of the Promise face takes after the Effect face's arguments. */
export interface CallOptions {
  /** Aborting it abandons the call (its Promise rejects with the signal's reason) or ends the watch. */
  readonly signal?: AbortSignal
  /** This call's time-out in ms, over the client's `timeoutMs` (a write that timed out may still have been applied). */
  readonly timeoutMs?: number
}

/** A method of the Effect face as the Promise face offers it: the same arguments, then `CallOptions`. */
export type Promised<F> = F extends (...args: infer P) => Effect.Effect<infer A, infer _E>
  ? (...args: [...P, options?: CallOptions]) => Promise<A>
  : F extends (...args: infer P) => Stream.Stream<infer A, infer _E> ? (...args: [...P, options?: CallOptions]) => AsyncIterable<A>
  : F

/**
 * The client for apps that do not use Effect: each method of `GatewayClient` (the same implementation),
 * a call a Promise that rejects with the typed error (`error._tag`: "Unauthorized", "BadRequest"…), a
 * watch an `AsyncIterable` (leaving its loop closes the socket).
 */
export type Client = { readonly [K in Exclude<keyof GatewayClientShape, "watch">]: Promised<GatewayClientShape[K]> } & {
  /** `watch` of the Effect face (written out: a mapped type loses its type parameter), as an `AsyncIterable`. */
  readonly watch: <const O extends WatchOptions = {}>(registration: WatchRegistration, options?: O, call?: CallOptions) => AsyncIterable<WatchItem<O>>
  /**
   * Keeps the current value of every getter `selectors` match, and gives the whole map to `onChange` at
   * each change (src/client/ValueSubscription.ts); answers the function that stops it. If the watch
   * fails (its token refused), `onError` is told and the subscription ends.
   */
  readonly subscribeValues: (
    selectors: ReadonlyArray<ChannelSelector>,
    onChange: (values: ReadonlyMap<ChannelId, Value>) => void,
    onError?: (error: ClientError) => void
  ) => () => void
  /** Releases what the client holds (its HTTP connections). */
  readonly close: () => Promise<void>
}

export interface CreateClientOptions extends ClientOptions {
  /** The HTTP client and WebSocket to use; by default `fetch` and the global `WebSocket`. */
  readonly platform?: Layer.Layer<HttpClient.HttpClient | Socket.WebSocketConstructor>
}

/** Rejects with the signal's reason once it is aborted, as `fetch` does, rather than with Effect's interruption. */
const abortable = <A>(signal: AbortSignal | undefined, run: (signal: AbortSignal | undefined) => Promise<A>): Promise<A> =>
  run(signal).catch((error: unknown) => Promise.reject(signal?.aborted === true ? signal.reason : error))

/** Ends a stream when `signal` is aborted, without waiting for its next element. */
const until = <A, E>(stream: Stream.Stream<A, E>, signal: AbortSignal | undefined): Stream.Stream<A, E> =>
  signal === undefined ? stream : Stream.interruptWhen(stream, Effect.callback<void>((resume) => {
    if (signal.aborted) return resume(Effect.void)
    signal.addEventListener("abort", () => resume(Effect.void), { once: true })
  }))

export const createClient = (options: CreateClientOptions): Client => {
  const platform = options.platform ?? Layer.merge(FetchHttpClient.layer, Socket.layerWebSocketConstructorGlobal)
  const runtime = ManagedRuntime.make(platform)
  const client = clientOf(options, Effect.flatMap(runtime.contextEffect, (context) => Effect.provideContext(platformFrom, context)))
  // One loop over the Effect face: a method's `CallOptions` follow its own parameters (its `length`).
  const promised = Object.fromEntries(Object.entries(client).map(([name, method]) => [
    name,
    typeof method !== "function" ? method : (...args: ReadonlyArray<unknown>) => {
      const { signal, timeoutMs } = (args[method.length] ?? {}) as CallOptions
      const answer = Reflect.apply(method, client, args.slice(0, method.length)) as Effect.Effect<unknown, unknown> | Stream.Stream<unknown, unknown>
      return Stream.isStream(answer)
        ? Stream.toAsyncIterable(until(answer, signal))
        : abortable(signal, (s) => runtime.runPromise(Effect.provideService(answer, RequestTimeout, timeoutMs), { signal: s }))
    }
  ]))
  const subscribeValues: Client["subscribeValues"] = (selectors, onChange, onError) => {
    const changes = Stream.runForEach(valueMaps(client.watch(valueRegistration(selectors))), (values) => Effect.sync(() => onChange(values)))
    const fiber = runtime.runFork(Effect.catch(changes, (error) => Effect.sync(() => onError?.(error))))
    return () => fiber.interruptUnsafe()
  }
  return { ...promised, subscribeValues, close: () => runtime.dispose() } as Client
}
