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
  /** On a database with no user, create `admin` with a random password and print it and a token once. */
  readonly defaultAdmin: boolean
  /** Days a session token (from `POST /users/login` or setup) lasts. */
  readonly sessionDays: number
  /** Origins allowed to call the API from a browser (CORS); empty: none. */
  readonly corsOrigins: ReadonlyArray<string>
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
  defaultAdmin: true,
  sessionDays: 30,
  corsOrigins: []
}
