import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { CliError } from "effect/cli"

/**
 * Flags that each parse, and that the gateway cannot honour together: a usage error (exit 2), said in
 * one line like any refused start, with no pointer to `--help` (the line says what to do instead).
 */
export class FlagConflict extends Data.TaggedError("FlagConflict")<{ readonly reason: string }> {
  override get message(): string {
    return this.reason
  }
}

/** Refuses the command line: `gateway: <reason>` on stderr, exit code 2 (src/cli/ExitCode.ts). */
export const refuseFlags = (reason: string) =>
  Effect.fail(new CliError.UserError({ userMessage: reason, cause: new FlagConflict({ reason }) }))

/** Whether a failure is a refused combination of flags. */
export const isFlagConflict = (error: unknown): boolean =>
  CliError.isCliError(error) && error._tag === "UserError" && error.cause instanceof FlagConflict
