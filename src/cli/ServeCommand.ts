import { Effect, type Option } from "effect"
import { CliError, Command, Flag } from "effect/cli"
import { defaultGatewayConfig, type GatewayConfigShape } from "../GatewayConfig.ts"
import { serve } from "../main.ts"

/** An integer flag that must lie in `[min, max]`, with a message naming the flag and the bound. */
const boundedInt = (name: string, metavar: string, min: number, max: number, fallback: number, description: string) =>
  Flag.Int(name).pipe(
    Flag.withMetavar(metavar),
    Flag.filter(
      (n) => n >= min && n <= max,
      () => `an integer from ${min} to ${max}`
    ),
    Flag.withDefault(fallback),
    Flag.withDescription(`${description} (default ${fallback})`)
  )

const flags = {
  home: Flag.File("home", { mustExist: true }).pipe(
    Flag.withMetavar("FILE"),
    Flag.withDescription("simulated home file (default: the built-in demo home)"),
    Flag.optional
  ),
  data: Flag.String("data").pipe(
    Flag.withMetavar("DIR"),
    Flag.withDefault(defaultGatewayConfig.dataDir),
    Flag.withDescription(`folder holding gateway.db (default ${defaultGatewayConfig.dataDir})`)
  ),
  host: Flag.String("host").pipe(
    Flag.withMetavar("HOST"),
    Flag.withDefault(defaultGatewayConfig.host),
    Flag.withDescription(`address to listen on (default ${defaultGatewayConfig.host})`)
  ),
  port: boundedInt("port", "N", 0, 65_535, defaultGatewayConfig.port, "TCP port; 0 picks a free one"),
  deviceTimeout: boundedInt(
    "device-timeout",
    "MS",
    1,
    2_147_483_647,
    defaultGatewayConfig.deviceTimeoutMs,
    "milliseconds a device may take to answer"
  ),
  maxBodyBytes: boundedInt(
    "max-body-bytes",
    "N",
    1,
    Number.MAX_SAFE_INTEGER,
    defaultGatewayConfig.maxBodyBytes,
    "request bodies over this many bytes are refused with 413"
  ),
  noClock: Flag.Boolean("no-clock").pipe(
    Flag.withDefault(false),
    Flag.withDescription("do not connect the built-in clock adapter (for an exact, time-free home)")
  )
}

const toConfig = (input: {
  readonly home: Option.Option<string>
  readonly data: string
  readonly host: string
  readonly port: number
  readonly deviceTimeout: number
  readonly maxBodyBytes: number
  readonly noClock: boolean
}): GatewayConfigShape => ({
  home: input.home,
  dataDir: input.data,
  host: input.host,
  port: input.port,
  deviceTimeoutMs: input.deviceTimeout,
  maxBodyBytes: input.maxBodyBytes,
  clock: !input.noClock,
  watchPingMs: defaultGatewayConfig.watchPingMs
})

const messageOf = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

/** `gateway serve`: runs the gateway until SIGINT or SIGTERM. */
export const serveCommand = Command.make("serve", flags, (input) => {
  const config = toConfig(input)
  // An unusable home file or port is the operator's problem to fix, so say it in one line, not a stack.
  const refuse = (userMessage: string, cause: unknown) => Effect.fail(new CliError.UserError({ userMessage, cause }))
  return serve(config).pipe(
    Effect.catchTags({
      ServeError: (error) => refuse(`cannot listen on ${config.host}:${config.port}: ${messageOf(error.cause)}`, error),
      InvalidHomeFile: (error) => refuse(`cannot use the home file: ${error.message}`, error)
    })
  )
}).pipe(
  Command.withDescription("Serve the HTTP API until SIGINT or SIGTERM")
)
