import { Context, Option } from "effect"

/**
 * Everything the operator can set when starting the gateway. The CLI builds it from flags;
 * tests build it directly. Features read it from the context, never from `process.env`.
 */
export interface GatewayConfigShape {
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
  /** How often the watch socket pings its peer; a peer that has not answered the previous ping by then is dropped. */
  readonly watchPingMs: number
}

export class GatewayConfig extends Context.Service<GatewayConfig, GatewayConfigShape>()("app/GatewayConfig") {}

export const defaultGatewayConfig: GatewayConfigShape = {
  home: Option.none(),
  dataDir: "./data",
  host: "127.0.0.1",
  port: 3000,
  deviceTimeoutMs: 5_000,
  maxBodyBytes: 1024 * 1024,
  clock: true,
  watchPingMs: 30_000
}
