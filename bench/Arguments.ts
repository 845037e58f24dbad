import { parseArgs, type ParseArgsOptionsConfig } from "node:util"
import { Data, Effect } from "effect"

/** A command line the entry cannot run: what is wrong, then the entry's usage. */
export class UsageError extends Data.TaggedError("UsageError")<{ readonly reason: string; readonly usage: string }> {
  override get message(): string {
    return `${this.reason}\n${this.usage}`
  }
}

/** This process's arguments: at most one positional (a case name filter) and `options`. */
export const readCommandLine = <const O extends ParseArgsOptionsConfig>(usage: string, options: O) =>
  Effect.gen(function*() {
    const parsed = yield* Effect.try({
      try: () => parseArgs({ args: process.argv.slice(2), allowPositionals: true, options }),
      catch: (error) => new UsageError({ reason: error instanceof Error ? error.message : String(error), usage })
    })
    if (parsed.positionals.length > 1) return yield* new UsageError({ reason: "give at most one name filter", usage })
    /** `--flag N`, checked to be a positive integer; `undefined` when absent. */
    const positiveInteger = (flag: string, text: string | undefined): Effect.Effect<number | undefined, UsageError> => {
      if (text === undefined) return Effect.succeed(undefined)
      const n = Number(text)
      return Number.isInteger(n) && n > 0
        ? Effect.succeed(n)
        : Effect.fail(new UsageError({ reason: `--${flag} takes a positive integer, not "${text}"`, usage }))
    }
    return { filter: parsed.positionals[0] ?? "", values: parsed.values, positiveInteger }
  })
