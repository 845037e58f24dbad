import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as PlatformError from "effect/PlatformError"
import * as Redacted from "effect/Redacted"
import type { MqttOptions } from "../../GatewayOptions.ts"
import { EmbeddedBroker } from "./EmbeddedBroker.ts"
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

/** Why a file could not be read, in a few words (the path is said already). */
const whyUnreadable = ({ reason }: PlatformError.PlatformError): string =>
  reason._tag === "NotFound" ? "no such file" : reason._tag === "PermissionDenied" ? "permission denied" : reason.description ?? reason.message

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

/** The Zigbee2MQTT adapter on the embedded broker, logged in as the gateway itself. */
export const followEmbeddedBroker = (baseTopic: string) =>
  Layer.unwrap(Effect.gen(function*() {
    const embedded = yield* EmbeddedBroker
    return Zigbee2MqttAdapter.layer({
      url: embedded.url,
      username: Option.some(embedded.internalUsername),
      password: Option.some(embedded.internalPassword),
      ca: Option.none(),
      cert: Option.none(),
      key: Option.none(),
      baseTopic
    })
  }))

export interface MqttLayerOptions {
  /** The broker of `--mqtt` and its `--mqtt-…` options. */
  readonly mqtt: Option.Option<MqttOptions>
  /** Zigbee2MQTT's base topic (`--mqtt-base-topic`). */
  readonly baseTopic: string
  /** The embedded broker's port (`--mqtt-broker`), on `host`. */
  readonly broker: Option.Option<number>
  readonly host: string
}

/**
 * MQTT as the options ask: the embedded broker (`--mqtt-broker`), and the Zigbee2MQTT adapter on
 * `--mqtt`'s broker, or, when only the embedded broker runs, on that one (logged in as the gateway).
 */
export const mqttLayer = ({ mqtt, baseTopic, broker, host }: MqttLayerOptions) =>
  Layer.unwrap(
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      if (Option.isSome(mqtt)) {
        const settings = yield* settingsOf(fs, mqtt.value)
        const adapter = Zigbee2MqttAdapter.layer({ ...settings, baseTopic })
        return Option.match(broker, {
          onNone: () => adapter,
          // Provided, the broker is started before the adapter and stopped after it.
          onSome: (port) => adapter.pipe(Layer.provide(EmbeddedBroker.layer(host, port)))
        })
      }
      if (Option.isSome(broker)) {
        return followEmbeddedBroker(baseTopic).pipe(Layer.provide(EmbeddedBroker.layer(host, broker.value)))
      }
      return Layer.empty
    })
  )
