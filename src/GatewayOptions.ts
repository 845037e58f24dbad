import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"

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

/**
 * Everything the operator can set when starting the gateway, as one plain value: the command line
 * builds it from flags (src/cli/ServeCommand.ts), tests build it directly, and `src/main.ts` hands each
 * layer the part of it that layer takes (`layerOptions`). No layer reads it: each takes its own options.
 */
export interface GatewayOptions {
  /** Simulated home file; `None` means the built-in demo home. */
  readonly home: Option.Option<string>
  /** Folder holding `gateway.db`. */
  readonly dataDir: string
  readonly host: string
  /** `0` picks a free port. */
  readonly port: number
  /** How long a device may take to answer a fetch or send batch before it is a per-channel error. */
  readonly deviceTimeoutMs: number
  /** Request bodies over this many bytes are answered with 413. */
  readonly maxBodyBytes: number
  /** Connect the built-in clock adapter (current time, time of day, an interval counter). */
  readonly clock: boolean
  /** Follow a Zigbee2MQTT bridge on this broker. */
  readonly mqtt: Option.Option<MqttOptions>
  /** Zigbee2MQTT's base topic. */
  readonly mqttBaseTopic: string
  /** Follow the devices announced by Home Assistant's MQTT discovery under this prefix, on the same broker. */
  readonly mqttDiscovery: Option.Option<string>
  /** Run the embedded MQTT broker on this port (on `host`); with no `mqtt`, the bridge is followed there. */
  readonly mqttBroker: Option.Option<number>
  /** On a database with no user, create `admin` with a random password and print it and a token once. */
  readonly defaultAdmin: boolean
  /** Days a session token (from `POST /users/login` or setup) lasts. */
  readonly sessionDays: number
  /** Origins allowed to call the API from a browser (CORS); empty: none. */
  readonly corsOrigins: ReadonlyArray<string>
  /** The folder of the built dashboard, served at `/` (docs/dashboard.md); none: the API alone. */
  readonly dashboard: Option.Option<string>
  /** How often the watch socket pings its peer; a peer that has not answered the previous ping by then is dropped. */
  readonly watchPingMs: number
  /**
   * How often the tokens of open watch sockets are looked up again, if the store changed: how late a
   * revocation by another process (the command line) reaches them (docs/auth.md).
   */
  readonly tokenRecheckMs: number
  /** `GET /metrics` answers requests from the machine itself (a loopback address) without a token. */
  readonly metricsOpenOnLoopback: boolean
  /** Vocabulary A is deprecated (`--deprecate-vocabulary-a`), and goes away on `sunset` if given. */
  readonly deprecateVocabularyA: Option.Option<{ readonly sunset: Option.Option<Date> }>
  /** While A is deprecated, how often the tokens that still called it are logged (a day). */
  readonly vocabularyAReportMs: number
}

export const defaultGatewayOptions: GatewayOptions = {
  home: Option.none(),
  dataDir: "./data",
  host: "127.0.0.1",
  port: 3000,
  deviceTimeoutMs: 5_000,
  maxBodyBytes: 1024 * 1024,
  clock: true,
  mqtt: Option.none(),
  mqttBaseTopic: "zigbee2mqtt",
  mqttDiscovery: Option.none(),
  mqttBroker: Option.none(),
  defaultAdmin: true,
  sessionDays: 30,
  corsOrigins: [],
  dashboard: Option.none(),
  watchPingMs: 30_000,
  tokenRecheckMs: 500,
  metricsOpenOnLoopback: false,
  deprecateVocabularyA: Option.none(),
  vocabularyAReportMs: 24 * 60 * 60 * 1000
}
