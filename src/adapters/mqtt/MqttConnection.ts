import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import type { IClientOptions } from "mqtt"
import type { HealthCondition } from "../../gateway/HealthConditions.ts"

/** Where and how to reach a broker (`--mqtt URL` and the options beside it). */
export interface MqttClientSettings {
  /** `mqtt://`, `mqtts://`, `ws://` or `wss://`; user and password may sit in the URL. */
  readonly url: string
  readonly username: Option.Option<string>
  readonly password: Option.Option<Redacted.Redacted<string>>
  /** TLS: the broker's CA, and a client certificate and key (PEM text). */
  readonly ca: Option.Option<string>
  readonly cert: Option.Option<string>
  readonly key: Option.Option<string>
  /** When `/health` calls the connection unsteady (default `defaultSteadiness`). */
  readonly steadiness?: Steadiness
}

/**
 * A connection is unsteady while each of its last `connections` connections ended within `lastingMs`
 * of being made, until one lasts `lastingMs`: a broker that drops it at once (a SUBSCRIBE it refuses,
 * a client id taken over) leaves it connected most of the time, and useless.
 */
export interface Steadiness {
  readonly connections: number
  readonly lastingMs: number
}

export const defaultSteadiness: Steadiness = { connections: 3, lastingMs: 10_000 }

/** What the connection tells its one reader, in the order it happened. */
export type ConnectionEvent =
  | { readonly _tag: "Connected" }
  | { readonly _tag: "Disconnected"; readonly reason: string }
  /** An attempt failed (refused login, no route…); said once per distinct reason until connected. */
  | { readonly _tag: "ConnectFailed"; readonly reason: string }
  /** `retained`: the broker kept it and hands it to a new subscription; it was said earlier, not now. */
  | { readonly _tag: "Message"; readonly topic: string; readonly payload: string; readonly retained: boolean }

export class PublishFailed extends Data.TaggedError("PublishFailed")<{ readonly reason: string }> {
  override get message(): string {
    return this.reason
  }
}

export interface MqttConnection {
  /** Connection changes and messages, each once, in order. */
  readonly events: Queue.Dequeue<ConnectionEvent>
  readonly isConnected: () => boolean
  /** Why the connection does not serve now (`None` while it does), for `/health`: not connected, or unsteady. */
  readonly health: HealthCondition
  /** Publishes now, or fails when the broker is not reachable (nothing is queued for later). */
  readonly publish: (topic: string, payload: string) => Effect.Effect<void, PublishFailed>
  /** Adds topics to those it subscribes to, now if connected and on every reconnection. */
  readonly subscribe: (topics: ReadonlyArray<string>) => Effect.Effect<void>
  /** Takes topics out of those it subscribes to, now if connected. */
  readonly unsubscribe: (topics: ReadonlyArray<string>) => Effect.Effect<void>
  /** Where it connects, without credentials, for messages. */
  readonly where: string
}

/** Reconnection waits this long after a loss, doubling on each failed attempt up to the maximum. */
export const reconnectBackoff = { firstMs: 200, maxMs: 10_000 } as const

/** The URL without its user and password. */
const withoutCredentials = (url: string): string => {
  try {
    const parsed = new URL(url)
    parsed.username = ""
    parsed.password = ""
    return parsed.toString().replace(/\/$/, "")
  } catch {
    return url
  }
}

/**
 * A client connection to an MQTT broker for as long as the scope lasts. It subscribes to `topics` on
 * every (re)connection, reconnects with backoff after a loss, and never queues a publish while the
 * broker is away: a write is sent now or refused, so that none arrives late or twice. `name` names it
 * in `/health` (`the Zigbee2MQTT connection`).
 */
export const openMqttConnection = (
  settings: MqttClientSettings,
  topics: ReadonlyArray<string>,
  name: string
): Effect.Effect<MqttConnection, never, Scope.Scope> =>
  Effect.gen(function*() {
    const events = yield* Effect.acquireRelease(Queue.unbounded<ConnectionEvent>(), Queue.shutdown)
    const options: IClientOptions = {
      reconnectPeriod: reconnectBackoff.firstMs,
      // A refused login is retried too (with the backoff): the broker may be restarting, or its users changing.
      reconnectOnConnackError: true,
      connectTimeout: 10_000,
      resubscribe: false,
      queueQoSZero: false,
      clean: true,
      ...Option.match(settings.username, { onNone: () => ({}), onSome: (username) => ({ username }) }),
      ...Option.match(settings.password, { onNone: () => ({}), onSome: (p) => ({ password: Redacted.value(p) }) }),
      ...Option.match(settings.ca, { onNone: () => ({}), onSome: (ca) => ({ ca }) }),
      ...Option.match(settings.cert, { onNone: () => ({}), onSome: (cert) => ({ cert }) }),
      ...Option.match(settings.key, { onNone: () => ({}), onSome: (key) => ({ key }) })
    }
    const client = yield* Effect.acquireRelease(
      // Loaded only when a bridge is followed: most starts need none, and mqtt.js costs ~100 ms and ~10 MiB.
      Effect.promise(async () => (await import("mqtt")).connect(settings.url, options)),
      (client) => Effect.callback<void>((resume) => void client.end(true, () => resume(Effect.void)))
    )
    const subscribed = new Set(topics)
    let up = false
    let lastFailure = ""
    /** The last error since the connection was last up ("" before any). */
    let lastError = ""
    const { connections, lastingMs } = settings.steadiness ?? defaultSteadiness
    /** When the connection was last made, and how many connections in a row ended within `lastingMs`. */
    let connectedAt = 0
    let shortInARow = 0
    client.on("connect", () => {
      up = true
      connectedAt = Date.now()
      lastFailure = ""
      lastError = ""
      client.options.reconnectPeriod = reconnectBackoff.firstMs
      client.subscribe([...subscribed], { qos: 0 })
      Queue.offerUnsafe(events, { _tag: "Connected" })
    })
    client.on("error", (error) => {
      lastError = error.message
      if (up || error.message === lastFailure) return
      lastFailure = error.message
      Queue.offerUnsafe(events, { _tag: "ConnectFailed", reason: error.message })
    })
    client.on("close", () => {
      const period = client.options.reconnectPeriod ?? reconnectBackoff.firstMs
      client.options.reconnectPeriod = Math.min(reconnectBackoff.maxMs, period * 2)
      if (lastError === "") lastError = "connection closed"
      if (!up) return
      up = false
      shortInARow = Date.now() - connectedAt < lastingMs ? shortInARow + 1 : 0
      Queue.offerUnsafe(events, { _tag: "Disconnected", reason: lastError })
    })
    client.on("message", (topic, payload, packet) =>
      void Queue.offerUnsafe(events, { _tag: "Message", topic, payload: payload.toString("utf8"), retained: packet.retain }))

    const where = withoutCredentials(settings.url)
    const publish = (topic: string, payload: string) =>
      Effect.callback<void, PublishFailed>((resume) => {
        if (!client.connected) {
          resume(Effect.fail(new PublishFailed({ reason: `the MQTT broker at ${where} is not reachable` })))
          return
        }
        client.publish(topic, payload, { qos: 0 }, (error) => {
          if (error === undefined || error === null) return resume(Effect.void)
          resume(Effect.fail(new PublishFailed({ reason: `MQTT publish to ${where} failed: ${error.message}` })))
        })
      })
    const subscribe = (more: ReadonlyArray<string>) =>
      Effect.sync(() => {
        const fresh = more.filter((topic) => !subscribed.has(topic))
        for (const topic of fresh) subscribed.add(topic)
        if (fresh.length > 0 && client.connected) client.subscribe(fresh, { qos: 0 })
      })
    const unsubscribe = (fewer: ReadonlyArray<string>) =>
      Effect.sync(() => {
        const gone = fewer.filter((topic) => subscribed.delete(topic))
        if (gone.length > 0 && client.connected) client.unsubscribe(gone)
      })
    const healthNow = (): Option.Option<string> => {
      // Before the first attempt ends there is no error to tell yet.
      if (!client.connected) return Option.some(`${name} to the MQTT broker at ${where} is not up${lastError === "" ? " (connecting)" : `: ${lastError}`}`)
      if (shortInARow < connections || Date.now() - connectedAt >= lastingMs) return Option.none()
      return Option.some(`${name} to the MQTT broker at ${where} is unsteady: each of its last ${connections} connections ended within ${lastingMs / 1000} s`)
    }
    const health: HealthCondition = () => Effect.succeed(healthNow())
    return { events, isConnected: () => client.connected, health, publish, subscribe, unsubscribe, where }
  })
