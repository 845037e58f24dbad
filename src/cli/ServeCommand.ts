import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import { CliError, Command, Flag } from "effect/cli"
import { fileURLToPath } from "node:url"
import { defaultGatewayOptions, type GatewayOptions } from "../GatewayOptions.ts"
import { dataFolderUnusable } from "./StoreAccess.ts"

/**
 * An integer flag that must lie in `[min, max]`, with a message naming the flag and the bound; when
 * `env` is given, that environment variable stands in for an absent flag (containers set `PORT`).
 */
const boundedInt = (
  name: string,
  metavar: string,
  min: number,
  max: number,
  fallback: number,
  description: string,
  env?: string
) =>
  Flag.Int(name).pipe(
    Flag.withMetavar(metavar),
    (flag) => (env === undefined ? flag : Flag.withFallbackConfig(flag, Config.Int(env))),
    Flag.filter(
      (n) => n >= min && n <= max,
      () => `an integer from ${min} to ${max}`
    ),
    Flag.withDefault(fallback),
    Flag.withDescription(`${description} (default ${env === undefined ? "" : `$${env}, else `}${fallback})`)
  )

/** A flag that switches something on (or off, for a `--no-…`) when given. */
const switchFlag = (name: string, description: string) =>
  Flag.Boolean(name).pipe(Flag.withDefault(false), Flag.withDescription(description))

/** `--deprecate-vocabulary-a`'s value: none (no sunset), or a day (midnight UTC) or a UTC time. */
const sunsetOf = (text: string): Option.Option<{ readonly sunset: Option.Option<Date> }> => {
  if (text === "") return Option.some({ sunset: Option.none() })
  if (!/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2})?Z)?$/.test(text)) return Option.none()
  const date = new Date(text)
  // `Date` rolls an impossible day over (2027-02-30 is March 2nd): the day it reads must be the one written.
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text.slice(0, 10)
    ? Option.none()
    : Option.some({ sunset: Option.some(date) })
}

const topicWithoutWildcards = Flag.filter((topic: string) => topic !== "" && !/[#+]/.test(topic), () => "a topic without wildcards")

/** Home Assistant's default discovery prefix. */
const discoveryPrefix = "homeassistant"

const flags = {
  // Not `mustExist`: a missing file is reported like any unusable home file (exit 1), not as a usage error.
  home: Flag.File("home").pipe(
    Flag.withMetavar("FILE"),
    Flag.withDescription("simulated home file (default: the built-in demo home)"),
    Flag.optional
  ),
  data: Flag.String("data").pipe(
    Flag.withMetavar("DIR"),
    Flag.withDefault(defaultGatewayOptions.dataDir),
    Flag.withDescription(`folder holding gateway.db (default ${defaultGatewayOptions.dataDir})`)
  ),
  host: Flag.String("host").pipe(
    Flag.withMetavar("HOST"),
    Flag.withFallbackConfig(Config.String("HOST")),
    Flag.withDefault(defaultGatewayOptions.host),
    Flag.withDescription(`address to listen on (default $HOST, else ${defaultGatewayOptions.host})`)
  ),
  port: boundedInt("port", "N", 0, 65_535, defaultGatewayOptions.port, "TCP port; 0 picks a free one", "PORT"),
  deviceTimeout: boundedInt(
    "device-timeout",
    "MS",
    1,
    2_147_483_647,
    defaultGatewayOptions.deviceTimeoutMs,
    "milliseconds a device may take to answer"
  ),
  maxBodyBytes: boundedInt(
    "max-body-bytes",
    "N",
    1,
    Number.MAX_SAFE_INTEGER,
    defaultGatewayOptions.maxBodyBytes,
    "request bodies over this many bytes are refused with 413"
  ),
  noClock: switchFlag("no-clock", "do not connect the built-in clock adapter (for an exact, time-free home)"),
  mqtt: Flag.String("mqtt").pipe(
    Flag.withMetavar("URL"),
    Flag.withDescription("follow a Zigbee2MQTT bridge on this MQTT broker (mqtt://, mqtts://, ws://, wss://)"),
    Flag.optional
  ),
  mqttBaseTopic: Flag.String("mqtt-base-topic").pipe(
    Flag.withMetavar("TOPIC"),
    topicWithoutWildcards,
    Flag.withDefault(defaultGatewayOptions.mqttBaseTopic),
    Flag.withDescription(`Zigbee2MQTT's base topic (default ${defaultGatewayOptions.mqttBaseTopic})`)
  ),
  mqttDiscovery: Flag.String("mqtt-discovery").pipe(
    Flag.withMetavar("PREFIX"),
    topicWithoutWildcards,
    Flag.withOptionalValue(discoveryPrefix),
    Flag.withDescription(
      `also follow the devices announced by Home Assistant's MQTT discovery on the same broker, under ${discoveryPrefix} or --mqtt-discovery=PREFIX`
    ),
    Flag.optional
  ),
  mqttUsername: Flag.String("mqtt-username").pipe(
    Flag.withMetavar("NAME"),
    Flag.withDescription("user name on the MQTT broker (else the URL's)"),
    Flag.optional
  ),
  mqttPassword: Flag.Redacted("mqtt-password").pipe(
    Flag.withMetavar("PASSWORD"),
    Flag.withDescription("password on the MQTT broker (else the URL's)"),
    Flag.optional
  ),
  // Not `mustExist`: an unreadable file is reported in one line (exit 1), like an unusable home file.
  mqttPasswordFile: Flag.File("mqtt-password-file").pipe(
    Flag.withMetavar("FILE"),
    Flag.withDescription("a file whose first line is the password on the MQTT broker (kept out of `ps`, unlike --mqtt-password)"),
    Flag.optional
  ),
  mqttCa: Flag.File("mqtt-ca", { mustExist: true }).pipe(
    Flag.withMetavar("FILE"),
    Flag.withDescription("PEM file of the CA that signed the broker's certificate (mqtts://, wss://)"),
    Flag.optional
  ),
  mqttCert: Flag.File("mqtt-cert", { mustExist: true }).pipe(
    Flag.withMetavar("FILE"),
    Flag.withDescription("PEM file of a client certificate for the broker"),
    Flag.optional
  ),
  mqttKey: Flag.File("mqtt-key", { mustExist: true }).pipe(
    Flag.withMetavar("FILE"),
    Flag.withDescription("PEM file of the client certificate's private key"),
    Flag.optional
  ),
  mqttBroker: Flag.Int("mqtt-broker").pipe(
    Flag.withMetavar("PORT"),
    Flag.filter((n) => n >= 0 && n <= 65_535, () => "an integer from 0 to 65535"),
    Flag.withOptionalValue("1883"),
    Flag.withDescription("run an MQTT broker for bridges on HOST, port 1883 or --mqtt-broker=PORT; clients log in as gateway users"),
    Flag.optional
  ),
  noDefaultAdmin: switchFlag("no-default-admin", "on a database with no user, create none: claim the gateway with POST /users/setup"),
  sessionDays: boundedInt("session-days", "N", 1, 3_650, defaultGatewayOptions.sessionDays, "days a login session lasts"),
  noDashboard: Flag.Boolean("no-dashboard").pipe(
    Flag.withDefault(false),
    Flag.withDescription("serve the API alone, without the dashboard at /")
  ),
  corsOrigin: Flag.String("cors-origin").pipe(
    Flag.withMetavar("ORIGIN"),
    Flag.atLeast(0),
    Flag.withDescription("an origin (e.g. https://app.example.org) whose pages may call the API; repeat for more (default: none)")
  ),
  metricsOpenOnLoopback: switchFlag(
    "metrics-open-on-loopback",
    "GET /metrics answers a request from this machine without a token (else: a token with the metrics right)"
  ),
  deprecateVocabularyA: Flag.String("deprecate-vocabulary-a").pipe(
    Flag.withMetavar("DATE"),
    Flag.withOptionalValue(""),
    Flag.filterMap(sunsetOf, () => "a date such as 2027-06-30 (midnight UTC) or 2027-06-30T12:00:00Z"),
    Flag.withDescription(
      "vocabulary A's answers say it is deprecated (Deprecation, Link headers); with =DATE, that it goes away then (Sunset)"
    ),
    Flag.optional
  )
}

/**
 * The dashboard `npm run build` makes, beside the command: the built command is dist/gateway.js and its
 * chunks (this code among them) are in dist/chunks, the dashboard in dist/dashboard.
 */
const builtDashboard = fileURLToPath(new URL("../dashboard", import.meta.url))

/** The options of the whole gateway, from the command line: `src/main.ts` hands each layer its part. */
const toOptions = (input: {
  readonly home: Option.Option<string>
  readonly data: string
  readonly host: string
  readonly port: number
  readonly deviceTimeout: number
  readonly maxBodyBytes: number
  readonly noClock: boolean
  readonly mqtt: Option.Option<string>
  readonly mqttBaseTopic: string
  readonly mqttDiscovery: Option.Option<string>
  readonly mqttUsername: Option.Option<string>
  readonly mqttPassword: Option.Option<Redacted.Redacted<string>>
  readonly mqttPasswordFile: Option.Option<string>
  readonly mqttCa: Option.Option<string>
  readonly mqttCert: Option.Option<string>
  readonly mqttKey: Option.Option<string>
  readonly mqttBroker: Option.Option<number>
  readonly noDefaultAdmin: boolean
  readonly sessionDays: number
  readonly noDashboard: boolean
  readonly corsOrigin: ReadonlyArray<string>
  readonly metricsOpenOnLoopback: boolean
  readonly deprecateVocabularyA: Option.Option<{ readonly sunset: Option.Option<Date> }>
}): GatewayOptions => ({
  home: input.home,
  dataDir: input.data,
  host: input.host,
  port: input.port,
  deviceTimeoutMs: input.deviceTimeout,
  maxBodyBytes: input.maxBodyBytes,
  clock: !input.noClock,
  mqtt: Option.map(input.mqtt, (url) => ({
    url,
    username: input.mqttUsername,
    password: input.mqttPassword,
    passwordFile: input.mqttPasswordFile,
    caFile: input.mqttCa,
    certFile: input.mqttCert,
    keyFile: input.mqttKey
  })),
  mqttBaseTopic: input.mqttBaseTopic,
  mqttDiscovery: input.mqttDiscovery,
  mqttBroker: input.mqttBroker,
  defaultAdmin: !input.noDefaultAdmin,
  sessionDays: input.sessionDays,
  corsOrigins: input.corsOrigin,
  dashboard: input.noDashboard ? Option.none() : Option.some(builtDashboard),
  watchPingMs: defaultGatewayOptions.watchPingMs,
  tokenRecheckMs: defaultGatewayOptions.tokenRecheckMs,
  metricsOpenOnLoopback: input.metricsOpenOnLoopback,
  deprecateVocabularyA: input.deprecateVocabularyA,
  vocabularyAReportMs: defaultGatewayOptions.vocabularyAReportMs
})

const messageOf = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

/** `gateway serve`: runs the gateway until SIGINT or SIGTERM. */
export const serveCommand = Command.make("serve", flags, (input) => {
  const options = toOptions(input)
  // An unusable home file or port is the operator's problem to fix, so say it in one line, not a stack.
  const refuse = (userMessage: string, cause: unknown) => Effect.fail(new CliError.UserError({ userMessage, cause }))
  if (Option.isSome(input.mqttPassword) && Option.isSome(input.mqttPasswordFile)) {
    return refuse("--mqtt-password and --mqtt-password-file: give one of them, not both", undefined)
  }
  // The server is loaded only to serve: `users` and `tokens` start in half the time without it.
  return Effect.flatMap(Effect.promise(() => import("../main.ts")), ({ serve }) => serve(options)).pipe(
    Effect.catchTags({
      ServeError: (error) => refuse(`cannot listen on ${options.host}:${options.port}: ${messageOf(error.cause)}`, error),
      InvalidHomeFile: (error) => refuse(`cannot use the home file: ${error.message}`, error),
      BrokerStartFailed: (error) => refuse(error.message, error),
      MqttPasswordFileUnusable: (error) => refuse(error.message, error),
      PlatformError: (error) => refuse(`cannot read an MQTT TLS file: ${error.message}`, error),
      DatabaseError: (error) => Effect.fail(dataFolderUnusable(options.dataDir, error)),
      StoreError: (error) => Effect.fail(dataFolderUnusable(options.dataDir, error)),
      DatabaseTooNew: (error) => Effect.fail(dataFolderUnusable(options.dataDir, error))
    })
  )
}).pipe(
  Command.withDescription("Serve the HTTP API until SIGINT or SIGTERM")
)
