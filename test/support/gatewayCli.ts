import * as NodeServices from "@effect/platform-node/NodeServices"
import { format } from "node:util"
import { ConfigProvider, Console, Effect, Logger, Stdio } from "effect"
import { PasswordCost } from "../../src/auth/Password.ts"
import { runCli } from "../../src/cli/Cli.ts"
import { teardown } from "../../src/cli/ExitCode.ts"
import { testPasswordCost } from "../../src/cli/PasswordCostSetting.ts"
import type { Exited, ExtraEnv } from "./spawnGateway.ts"

/**
 * Runs `gateway …args` in this process: the program the bin runs (`runCli`, on Node's services, ended by
 * the bin's `teardown` for its exit code), with `args` as its command line and what it prints and logs
 * captured instead of written. For tests that use `users` and `tokens` to set or read the state of a
 * data folder, and for command lines refused before anything starts: a spawned process costs a Node
 * start and the bundle's load, a third of a second of CPU. Only for commands that end by themselves (a
 * `serve` that starts would run until the test's process ends).
 * A test of the process itself (its exit, its signals, its streams) spawns it (spawnGateway.ts).
 * `users add` and `passwd` hash at the test cost, as spawned gateways (spawnGateway.ts) and those of
 * gatewayOverHttp.ts do. `env`: variables the command reads (PORT, say) on top of this process's, as a
 * spawned one would have them.
 */
export const runGatewayInProcess = async (
  args: ReadonlyArray<string>,
  { env = {} }: { readonly env?: ExtraEnv } = {}
): Promise<Exited> => {
  let stdout = ""
  let stderr = ""
  const printed: Console.Console = Object.assign(Object.create(globalThis.console) as Console.Console, {
    log: (...parts: ReadonlyArray<unknown>) => (stdout += `${format(...parts)}\n`),
    error: (...parts: ReadonlyArray<unknown>) => (stderr += `${format(...parts)}\n`)
  })
  // The bin logs to stderr; so does this, as `LEVEL message` lines.
  const logged = Logger.layer([Logger.make(({ logLevel, message }) => (stderr += `${logLevel.toUpperCase()} ${[message].flat().join(" ")}\n`))])
  const exit = await Effect.runPromiseExit(
    runCli.pipe(
      Effect.provide(Stdio.layerTest({ args: Effect.succeed(args) })),
      Effect.provide(NodeServices.layer),
      Effect.provide(logged),
      Effect.provideService(Console.Console, printed),
      Effect.provideService(PasswordCost, testPasswordCost),
      Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.orElse(ConfigProvider.fromEnv({ env: { ...env } }), ConfigProvider.fromEnv()))
    )
  )
  let code = -1
  teardown(exit, (exitCode) => (code = exitCode))
  return { code, signal: null, stdout, stderr }
}
