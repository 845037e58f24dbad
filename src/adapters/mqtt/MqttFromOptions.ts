import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { whyUnreadable } from "../../FileTrouble.ts"
import { EmbeddedBroker } from "./EmbeddedBroker.ts"
import type { MqttClientSettings } from "./MqttConnection.ts"
import { MqttDiscoveryAdapter } from "./MqttDiscoveryAdapter.ts"
import { Zigbee2MqttAdapter } from "./Zigbee2MqttAdapter.ts"

/** `--mqtt-password-file` names a file the gateway cannot read, or whose first line is empty. */
export class MqttPasswordFileUnusable extends Data.TaggedError("MqttPasswordFileUnusable")<{ readonly file: string; readonly reason: string }> {
  override get message(): string {
    return `cannot use the MQTT password file ${this.file}: ${this.reason}`
  }
}

const readPem = (fs: FileSystem.FileSystem, file: Option.Option<string>) =>
  Option.match(file, {
    onNone: () => Effect.succeed(Option.none<string>()),
    onSome: (path) => Effect.map(fs.readFileString(path), Option.some)
  })

/** The password: `--mqtt-password`, else the first line of `--mqtt-password-file`, else none (the URL's, if any). */
const passwordOf = (fs: FileSystem.FileSystem, mqtt: MqttOptions) =>
  Option.match(Option.isSome(mqtt.password) ? Option.none<string>() : mqtt.passwordFile, {
    onNone: () => Effect.succeed(mqtt.password),
    onSome: (file) =>
      fs.readFileString(file).pipe(
        Effect.mapError((error) => new MqttPasswordFileUnusable({ file, reason: whyUnreadable(error) })),
        Effect.map((text) => text.split(/\r?\n/, 1)[0] ?? ""),
        Effect.filterOrFail((line) => line !== "", () => new MqttPasswordFileUnusable({ file, reason: "its first line is empty" })),
        Effect.map((line) => Option.some(Redacted.make(line)))
      )
  })

const settingsOf = (fs: FileSystem.FileSystem, mqtt: MqttOptions) =>
  Effect.gen(function*() {
    return {
      url: mqtt.url,
      username: mqtt.username,
      password: yield* passwordOf(fs, mqtt),
      ca: yield* readPem(fs, mqtt.caFile),
      cert: yield* readPem(fs, mqtt.certFile),
      key: yield* readPem(fs, mqtt.keyFile)
    }
  })

/** The adapters `--mqtt-base-topic` and `--mqtt-discovery` ask for, on the broker of `settings`. */
const adaptersOn = (settings: MqttClientSettings, baseTopic: string, discovery: Option.Option<string>) =>
  Layer.mergeAll(
    Zigbee2MqttAdapter.layer({ ...settings, baseTopic }),
    Option.match(discovery, { onNone: () => Layer.empty, onSome: (prefix) => MqttDiscoveryAdapter.layer({ ...settings, prefix, baseTopic }) })
  )

/** The MQTT adapters on the embedded broker, logged in as the gateway itself. */
export const followEmbeddedBroker = (baseTopic: string, discovery: Option.Option<string> = Option.none()) =>
  Layer.unwrap(Effect.gen(function*() {
    const embedded = yield* EmbeddedBroker
    return adaptersOn({
      url: embedded.url,
      username: Option.some(embedded.internalUsername),
      password: Option.some(embedded.internalPassword),
      ca: Option.none(),
      cert: Option.none(),
      key: Option.none()
    }, baseTopic, discovery)
  }))

/** A broker to follow a Zigbee2MQTT bridge on (`--mqtt URL` and the `--mqtt-…` options). */
export interface MqttOptions {
  /** `mqtt://`, `mqtts://`, `ws://` or `wss://`; may hold `user:password@`. */
  readonly url: string
  readonly username: Option.Option<string>
  readonly password: Option.Option<Redacted.Redacted<string>>
  /** A file whose first line is the password (`--mqtt-password-file`): it stays off the command line. */
  readonly passwordFile: Option.Option<string>
  /** TLS: PEM files of the CA that signed the broker's certificate, and of a client certificate and key. */
  readonly caFile: Option.Option<string>
  readonly certFile: Option.Option<string>
  readonly keyFile: Option.Option<string>
}

export interface MqttLayerOptions {
  /** The broker of `--mqtt` and its `--mqtt-…` options. */
  readonly mqtt: Option.Option<MqttOptions>
  /** Zigbee2MQTT's base topic (`--mqtt-base-topic`). */
  readonly baseTopic: string
  /** Home Assistant's discovery prefix (`--mqtt-discovery`), if devices announced by MQTT discovery are followed. */
  readonly discovery: Option.Option<string>
  /** The embedded broker's port (`--mqtt-broker`), on `host`. */
  readonly broker: Option.Option<number>
  readonly host: string
}

/**
 * MQTT as the options ask: the embedded broker (`--mqtt-broker`), and the Zigbee2MQTT adapter (with
 * `--mqtt-discovery`, the MQTT discovery adapter too) on `--mqtt`'s broker, or, when only the
 * embedded broker runs, on that one (logged in as the gateway).
 */
export const mqttLayer = ({ mqtt, baseTopic, discovery, broker, host }: MqttLayerOptions) =>
  Layer.unwrap(
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      if (Option.isSome(mqtt)) {
        const adapters = adaptersOn(yield* settingsOf(fs, mqtt.value), baseTopic, discovery)
        return Option.match(broker, {
          onNone: () => adapters,
          // Provided, the broker is started before the adapters and stopped after them.
          onSome: (port) => adapters.pipe(Layer.provide(EmbeddedBroker.layer(host, port)))
        })
      }
      if (Option.isSome(broker)) {
        return followEmbeddedBroker(baseTopic, discovery).pipe(Layer.provide(EmbeddedBroker.layer(host, broker.value)))
      }
      return Layer.empty
    })
  )
