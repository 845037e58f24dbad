import * as Cause from "effect/Cause"
import * as Exit from "effect/Exit"
import { CliError } from "effect/cli"
import { defaultTeardown, type Teardown } from "effect/Runtime"
import { isFlagConflict } from "./FlagConflict.ts"

/**
 * How the process ends: 0 when stopped by SIGINT/SIGTERM (a requested stop is not a failure),
 * 2 for a bad command line (the usual usage-error code: a flag it cannot read, or flags it cannot
 * honour together), otherwise Effect's defaults (0 success, 1 failure).
 */
export const teardown: Teardown = (exit, onExit) => {
  if (Exit.isFailure(exit)) {
    if (Cause.hasInterruptsOnly(exit.cause)) return onExit(0)
    const error = Cause.squash(exit.cause)
    if (isUsageError(error) || isFlagConflict(error)) return onExit(2)
  }
  return defaultTeardown(exit, onExit)
}

/** The CLI wraps every parse error in a ShowHelp that lists it; a bare ShowHelp is `--help`. */
const isUsageError = (error: unknown): boolean =>
  CliError.isCliError(error) && error._tag === "ShowHelp" && error.errors.length > 0
