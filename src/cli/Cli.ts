import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { CliConfig, CliOutput, Command, GlobalFlag } from "effect/cli"
import { gatewayVersion } from "../Version.ts"
import { serveCommand } from "./ServeCommand.ts"
import { storeCommand } from "./StoreCommand.ts"
import { tokensCommand } from "./TokensCommand.ts"
import { translateCommand } from "./TranslateCommand.ts"
import { usersCommand } from "./UsersCommand.ts"

/** The `gateway` command and its subcommands. */
export const gatewayCommand = Command.make("gateway").pipe(
  Command.withDescription("A home device gateway serving two vocabularies of one API"),
  Command.withSubcommands([serveCommand, translateCommand, usersCommand, tokensCommand, storeCommand])
)

const plain = CliOutput.defaultFormatter({ colors: false })

/**
 * A bad command line gets its errors and a pointer to `--help` on stderr, not the whole help
 * on stdout (the default): stdout stays free for the `listening on` line scripts wait for.
 */
const presenter: CliOutput.Presenter = {
  present: (event) =>
    event._tag === "InvalidInvocation"
      ? Console.error(
        `${plain.formatErrors(event.errors).trim()}\n\nRun \`${event.commandPath.join(" ")} --help\` for usage.`
      )
      : CliOutput.defaultPresenter.present(event)
}

/**
 * A gateway that cannot start (a home file or data folder it cannot use, a port taken) says why in
 * one line on stderr, `gateway: cannot use …`, as docs/configuration.md promises: no banner, no stack.
 */
const formatter: CliOutput.Formatter = {
  ...plain,
  formatError: (error) => (error._tag === "UserError" ? `gateway: ${error.message}` : plain.formatError(error))
}

/**
 * Effect's global flags but `--wizard`: it prompts for every flag of a command, which a service's
 * command line has no use for.
 */
const globalFlags = CliConfig.layer({ builtIns: [GlobalFlag.Help, GlobalFlag.Version, GlobalFlag.Completions, GlobalFlag.LogLevel] })

/** Runs the command line from `process.argv`; a usage error fails with a `CliError`. */
export const runCli = Command.run(gatewayCommand, { version: gatewayVersion }).pipe(
  Effect.provide(Layer.mergeAll(CliOutput.layerPresenter(presenter), CliOutput.layer(formatter), globalFlags))
)
