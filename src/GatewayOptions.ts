import * as Option from "effect/Option"
import { gatewayFlags } from "./GatewayFlags.ts"
import { fallbacksOf, type OptionsOf } from "./OptionFlag.ts"

/** What the command line does not offer: tests and benchmarks set them to see the gateway sooner. */
interface Timings {
  /** How often the watch socket pings its peer; a peer that has not answered the previous ping by then is dropped. */
  readonly watchPingMs: number
  /**
   * How long a watch socket's peer has to answer the server's close (a client too slow, the gateway
   * stopping) before its connection is cut: a stalled client never answers.
   */
  readonly watchCloseGraceMs: number
  /** How long a client has to send a request's headers before it is answered 408 and cut off (`serverTimeouts`). */
  readonly headersTimeoutMs: number
  /**
   * How often the tokens of open watch sockets are looked up again, if the store changed: how late a
   * revocation by another process (the command line) reaches them (docs/auth.md).
   */
  readonly tokenRecheckMs: number
  /** The sliding window of the tokens a user may create over HTTP (a minute; docs/auth.md#limits). */
  readonly tokenCreationWindowMs: number
  /** While A is deprecated, how often the tokens that still called it are logged (a day). */
  readonly vocabularyAReportMs: number
}

/**
 * Everything the operator can set when starting the gateway, as one plain value: a field for each
 * flag of `gateway serve` (src/GatewayFlags.ts, where each is described), and the timings. The command
 * line builds it from its flags, tests build it directly, and `src/main.ts` hands each layer the part of
 * it that layer takes (`layerOptions`). No layer reads it: each takes its own options.
 */
export type GatewayOptions = OptionsOf<typeof gatewayFlags> & Timings

/**
 * The options when no flag is given, except the dashboard: a gateway built in code serves none unless
 * it is given the folder (the command line gives the one built beside it).
 */
export const defaultGatewayOptions: GatewayOptions = {
  ...fallbacksOf(gatewayFlags),
  dashboard: Option.none(),
  watchPingMs: 30_000,
  watchCloseGraceMs: 1_000,
  headersTimeoutMs: 10_000,
  tokenRecheckMs: 500,
  tokenCreationWindowMs: 60_000,
  vocabularyAReportMs: 24 * 60 * 60 * 1000
}
