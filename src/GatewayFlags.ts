import * as Config from "effect/Config"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { Flag } from "effect/cli"
import { fileURLToPath } from "node:url"
import { type TrustedProxies, trustedProxiesOf } from "./http/routing/ClientAddress.ts"
import { boundedInt, optionFlag, sameAsFlag, switchFlag } from "./OptionFlag.ts"

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

/**
 * A broker URL of a scheme the MQTT client speaks. Another (`http://`, or none: `127.0.0.1:1883`) would
 * start, and then speak MQTT to whatever answers, forever.
 */
const brokerUrl = Flag.filter((url: string) => /^(?:mqtts?|wss?):\/\/./i.test(url), () => "a URL of mqtt://, mqtts://, ws:// or wss://")

/**
 * A PostgreSQL URL without a password. A password there would show in `ps` and in every process listing
 * (docs/auth.md's rule): refused, saying where it goes instead.
 */
export const postgresUrl = Flag.filter(
  (redacted: Redacted.Redacted<string>) => {
    const url = Redacted.value(redacted)
    return URL.canParse(url) && /^postgres(?:ql)?:$/i.test(new URL(url).protocol) && new URL(url).password === ""
  },
  (redacted) =>
    URL.canParse(Redacted.value(redacted)) && new URL(Redacted.value(redacted)).password !== ""
      ? "a URL without a password: put the password in PGPASSWORD, a --database-password-file or ~/.pgpass, never on the command line"
      : "a URL such as postgres://USER@HOST:PORT/DATABASE"
)

/** Home Assistant's default discovery prefix. */
const discoveryPrefix = "homeassistant"

/**
 * The dashboard `npm run build` makes: this code is in dist/chunks (bundled) or dist/src (compiled),
 * the dashboard in dist/dashboard.
 */
const builtDashboard = fileURLToPath(new URL("../dashboard", import.meta.url))

/**
 * The flags of `gateway serve`, each described once, keyed by the field of `GatewayOptions` it fills:
 * the command's flags (src/cli/ServeCommand.ts), the options it builds, their type and their defaults
 * (src/GatewayOptions.ts) come from this table. README.md and docs/configuration.md list every flag.
 */
export const gatewayFlags = {
  /** Simulated home file; `None` means the built-in demo home. */
  // Not `mustExist`: a missing file is reported like any unusable home file (exit 1), not as a usage error.
  home: sameAsFlag(
    () => Flag.File("home").pipe(Flag.withMetavar("FILE"), Flag.withDescription("simulated home file (default: the built-in demo home)"), Flag.optional),
    Option.none()
  ),
  /** Folder holding `gateway.db`. */
  dataDir: sameAsFlag(
    (fallback) => Flag.String("data").pipe(Flag.withMetavar("DIR"), Flag.withDescription(`folder holding gateway.db (default ${fallback})`)),
    "./data"
  ),
  /** Keep users, tokens and tags in this PostgreSQL database instead of the data folder's SQLite file. */
  databaseUrl: optionFlag({
    // Read as a Redacted: a refused URL is not echoed in the error, in case it holds the password.
    flag: () =>
      Flag.Redacted("database-url").pipe(
        Flag.withMetavar("URL"),
        Flag.withFallbackConfig(Config.Redacted("GATEWAY_DATABASE_URL")),
        postgresUrl,
        Flag.withDescription(
          "keep users, tokens and tags in this PostgreSQL database, postgres://USER@HOST:PORT/DATABASE (default $GATEWAY_DATABASE_URL, else the data folder's SQLite file)"
        ),
        Flag.optional
      ),
    fallback: Option.none(),
    fill: (url): Option.Option<string> => Option.map(url, Redacted.value)
  }),
  /** A file whose first line is the database's password (else `PGPASSWORD`, else `.pgpass`). */
  // Not `mustExist`: an unreadable file is reported in one line (exit 1), like the MQTT password file.
  databasePasswordFile: sameAsFlag(
    () =>
      Flag.File("database-password-file").pipe(
        Flag.withMetavar("FILE"),
        Flag.withDescription("a file whose first line is the PostgreSQL password (else $PGPASSWORD, else ~/.pgpass)"),
        Flag.optional
      ),
    Option.none()
  ),
  host: sameAsFlag(
    (fallback) =>
      Flag.String("host").pipe(
        Flag.withMetavar("HOST"),
        Flag.withFallbackConfig(Config.String("HOST")),
        Flag.withDescription(`address to listen on (default $HOST, else ${fallback})`)
      ),
    "127.0.0.1"
  ),
  /** `0` picks a free port. */
  port: sameAsFlag(boundedInt("port", "N", 0, 65_535, "TCP port; 0 picks a free one", "PORT"), 3000),
  /** How long a device may take to answer a fetch or send batch before it is a per-channel error. */
  deviceTimeoutMs: sameAsFlag(boundedInt("device-timeout", "MS", 1, 2_147_483_647, "milliseconds a device may take to answer"), 5_000),
  /** Request bodies over this many bytes are answered with 413. */
  maxBodyBytes: sameAsFlag(
    boundedInt("max-body-bytes", "N", 1, Number.MAX_SAFE_INTEGER, "request bodies over this many bytes are refused with 413"),
    1024 * 1024
  ),
  /** Connect the built-in clock adapter (current time, time of day, an interval counter). */
  clock: optionFlag({
    flag: switchFlag("no-clock", "do not connect the built-in clock adapter (for an exact, time-free home)"),
    fallback: false,
    fill: (noClock) => !noClock
  }),
  /** Follow a Zigbee2MQTT bridge on the broker at this URL (`mqtt://`, `mqtts://`, `ws://`, `wss://`; may hold `user:password@`). */
  mqtt: sameAsFlag(
    () =>
      Flag.String("mqtt").pipe(
        Flag.withMetavar("URL"),
        brokerUrl,
        Flag.withDescription("follow a Zigbee2MQTT bridge on this MQTT broker (mqtt://, mqtts://, ws://, wss://)"),
        Flag.optional
      ),
    Option.none()
  ),
  /** Zigbee2MQTT's base topic. */
  mqttBaseTopic: sameAsFlag(
    (fallback) =>
      Flag.String("mqtt-base-topic").pipe(
        Flag.withMetavar("TOPIC"),
        topicWithoutWildcards,
        Flag.withDescription(`Zigbee2MQTT's base topic (default ${fallback})`)
      ),
    "zigbee2mqtt"
  ),
  /** Follow the devices announced by Home Assistant's MQTT discovery under this prefix, on the same broker. */
  mqttDiscovery: sameAsFlag(
    () =>
      Flag.String("mqtt-discovery").pipe(
        Flag.withMetavar("PREFIX"),
        topicWithoutWildcards,
        Flag.withOptionalValue(discoveryPrefix),
        Flag.withDescription(
          `also follow the devices announced by Home Assistant's MQTT discovery on the same broker, under ${discoveryPrefix} or --mqtt-discovery=PREFIX`
        ),
        Flag.optional
      ),
    Option.none()
  ),
  /** The user name on `mqtt`'s broker, else the URL's. */
  mqttUsername: sameAsFlag(
    () =>
      Flag.String("mqtt-username").pipe(Flag.withMetavar("NAME"), Flag.withDescription("user name on the MQTT broker (else the URL's)"), Flag.optional),
    Option.none()
  ),
  /** The password on `mqtt`'s broker, else the password file's, else the URL's. */
  mqttPassword: sameAsFlag(
    () =>
      Flag.Redacted("mqtt-password").pipe(Flag.withMetavar("PASSWORD"), Flag.withDescription("password on the MQTT broker (else the URL's)"), Flag.optional),
    Option.none()
  ),
  /** A file whose first line is the password (`--mqtt-password-file`): it stays off the command line. */
  // Not `mustExist`: an unreadable file is reported in one line (exit 1), like an unusable home file.
  mqttPasswordFile: sameAsFlag(
    () =>
      Flag.File("mqtt-password-file").pipe(
        Flag.withMetavar("FILE"),
        Flag.withDescription("a file whose first line is the password on the MQTT broker (kept out of `ps`, unlike --mqtt-password)"),
        Flag.optional
      ),
    Option.none()
  ),
  /** TLS: PEM file of the CA that signed the broker's certificate. */
  mqttCaFile: sameAsFlag(
    () =>
      Flag.File("mqtt-ca", { mustExist: true }).pipe(
        Flag.withMetavar("FILE"),
        Flag.withDescription("PEM file of the CA that signed the broker's certificate (mqtts://, wss://)"),
        Flag.optional
      ),
    Option.none()
  ),
  /** TLS: PEM file of a client certificate. */
  mqttCertFile: sameAsFlag(
    () =>
      Flag.File("mqtt-cert", { mustExist: true }).pipe(
        Flag.withMetavar("FILE"),
        Flag.withDescription("PEM file of a client certificate for the broker"),
        Flag.optional
      ),
    Option.none()
  ),
  /** TLS: PEM file of the client certificate's private key. */
  mqttKeyFile: sameAsFlag(
    () =>
      Flag.File("mqtt-key", { mustExist: true }).pipe(
        Flag.withMetavar("FILE"),
        Flag.withDescription("PEM file of the client certificate's private key"),
        Flag.optional
      ),
    Option.none()
  ),
  /** Run the embedded MQTT broker on this port (on `host`); with no `mqtt`, the bridge is followed there. */
  mqttBroker: sameAsFlag(
    () =>
      Flag.Int("mqtt-broker").pipe(
        Flag.withMetavar("PORT"),
        Flag.filter((n) => n >= 0 && n <= 65_535, () => "an integer from 0 to 65535"),
        Flag.withOptionalValue("1883"),
        Flag.withDescription("run an MQTT broker for bridges on HOST, port 1883 or --mqtt-broker=PORT; clients log in as gateway users"),
        Flag.optional
      ),
    Option.none()
  ),
  /** On a database with no user, create `admin` with a random password and print it and a token once. */
  defaultAdmin: optionFlag({
    flag: switchFlag("no-default-admin", "on a database with no user, create none: claim the gateway with POST /users/setup"),
    fallback: false,
    fill: (noDefaultAdmin) => !noDefaultAdmin
  }),
  /** Days a session token (from `POST /users/login` or setup) lasts. */
  sessionDays: sameAsFlag(boundedInt("session-days", "N", 1, 3_650, "days a login session lasts"), 30),
  /** The folder of the built dashboard, served at `/` (docs/dashboard.md); none: the API alone. */
  dashboard: optionFlag({
    flag: switchFlag("no-dashboard", "serve the API alone, without the dashboard at /"),
    fallback: false,
    fill: (noDashboard): Option.Option<string> => (noDashboard ? Option.none() : Option.some(builtDashboard))
  }),
  /** Origins allowed to call the API from a browser (CORS); empty: none. */
  corsOrigins: sameAsFlag(
    () =>
      Flag.String("cors-origin").pipe(
        Flag.withMetavar("ORIGIN"),
        Flag.atLeast(0),
        Flag.withDescription("an origin (e.g. https://app.example.org) whose pages may call the API; repeat for more (default: none)")
      ),
    []
  ),
  /**
   * The reverse proxies (by address) whose `Forwarded` or `X-Forwarded-For` names the client of a request
   * they relay: the address the login throttle counts and the log lines name (docs/security.md).
   */
  trustProxy: sameAsFlag(
    (): Flag.Flag<TrustedProxies> =>
      Flag.String("trust-proxy").pipe(
        Flag.withMetavar("ADDRESS[,ADDRESS…]"),
        Flag.filterMap(trustedProxiesOf, () => "IP addresses separated by commas, such as 127.0.0.1,::1"),
        Flag.withDescription(
          "a request from one of these reverse proxies comes from the client its Forwarded or X-Forwarded-For header names (default: none)"
        )
      ),
    new Set()
  ),
  /** `GET /metrics` answers requests from the machine itself (a loopback address) without a token. */
  metricsOpenOnLoopback: sameAsFlag(
    switchFlag(
      "metrics-open-on-loopback",
      "GET /metrics answers a request from this machine without a token (else: a token with the metrics right)"
    ),
    false
  ),
  /** Vocabulary A is deprecated (`--deprecate-vocabulary-a`), and goes away on `sunset` if given. */
  deprecateVocabularyA: sameAsFlag(
    () =>
      Flag.String("deprecate-vocabulary-a").pipe(
        Flag.withMetavar("DATE"),
        Flag.withOptionalValue(""),
        Flag.filterMap(sunsetOf, () => "a date such as 2027-06-30 (midnight UTC) or 2027-06-30T12:00:00Z"),
        Flag.withDescription(
          "vocabulary A's answers say it is deprecated (Deprecation, Link headers); with =DATE, that it goes away then (Sunset)"
        ),
        Flag.optional
      ),
    Option.none()
  )
}
