import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { CliError, Command } from "effect/cli"
import { gatewayFlags } from "../GatewayFlags.ts"
import { defaultGatewayOptions, type GatewayOptions } from "../GatewayOptions.ts"
import { flagsOf, optionsOf } from "../OptionFlag.ts"
import type { StoreError } from "../domain/StoreError.ts"
import type { DatabaseTooNew } from "../store/Migrations.ts"
import { refuseFlags } from "./FlagConflict.ts"
import { dataFolderUnusable } from "./StoreAccess.ts"

const messageOf = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

/** `gateway serve`: runs the gateway until SIGINT or SIGTERM. */
export const serveCommand = Command.make("serve", flagsOf(gatewayFlags), (input) => {
  const options: GatewayOptions = { ...defaultGatewayOptions, ...optionsOf(gatewayFlags, input) }
  // An unusable home file or port is the operator's problem to fix, so say it in one line, not a stack.
  const refuse = (userMessage: string, cause: unknown) => Effect.fail(new CliError.UserError({ userMessage, cause }))
  if (Option.isSome(input.mqttPassword) && Option.isSome(input.mqttPasswordFile)) {
    return refuseFlags("--mqtt-password and --mqtt-password-file: give one of them, not both")
  }
  // Each replica would run a broker of its own, and the bridges publish to one: the replicas would not share the devices.
  if (Option.isSome(options.mqttBroker) && Option.isSome(options.databaseUrl)) {
    return refuseFlags(
      "--mqtt-broker runs a broker inside this gateway alone, and --database-url makes it one replica of several: " +
        "run one MQTT broker for all replicas (such as mosquitto) and give each replica --mqtt URL"
    )
  }
  /** Where the stores are (the data folder, or the database of `--database-url`) cannot be used: one line, exit 1. */
  const storeUnusable = (error: StoreError | DatabaseTooNew) =>
    Option.match(options.databaseUrl, {
      onNone: () => dataFolderUnusable(options.dataDir, error),
      onSome: (url) => new CliError.UserError({ userMessage: `cannot use the database ${url}: ${error.message}`, cause: error })
    })
  // The server is loaded only to serve: `users` and `tokens` start in half the time without it.
  return Effect.flatMap(Effect.promise(() => import("../main.ts")), ({ serve }) => serve(options)).pipe(
    Effect.catchTags({
      ServeError: (error) => refuse(`cannot listen on ${options.host}:${options.port}: ${messageOf(error.cause)}`, error),
      InvalidHomeFile: (error) => refuse(`cannot use the home file: ${error.message}`, error),
      BrokerStartFailed: (error) => refuse(error.message, error),
      MqttPasswordFileUnusable: (error) => refuse(error.message, error),
      PlatformError: (error) => refuse(`cannot read an MQTT TLS file: ${error.message}`, error),
      DatabasePasswordFileUnusable: (error) => refuse(error.message, error),
      DatabaseError: (error) => Effect.fail(dataFolderUnusable(options.dataDir, error)),
      StoreError: (error) => Effect.fail(storeUnusable(error)),
      DatabaseTooNew: (error) => Effect.fail(storeUnusable(error))
    })
  )
}).pipe(
  Command.withDescription("Serve the HTTP API until SIGINT or SIGTERM")
)
