import * as Config from "effect/Config"
import { Flag } from "effect/cli"

/**
 * A flag of `gateway serve` and the field of the gateway's options it fills, described once: the
 * command's flag, the field's type and its default all come from it (src/GatewayFlags.ts).
 */
export interface OptionFlag<A, Field> {
  /** The flag: name, metavar, checks and description, which may show `fallback`. */
  flag(fallback: A): Flag.Flag<A>
  /** The value of an absent flag (when no environment variable stands in). */
  readonly fallback: A
  /** The field, from the flag's value. */
  fill(value: A): Field
}

/** A flag that fills its field with something other than its own value. */
export const optionFlag = <A, Field>(entry: {
  readonly flag: (fallback: A) => Flag.Flag<A>
  readonly fallback: A
  readonly fill: (value: A) => Field
}): OptionFlag<A, Field> => entry

/** A flag whose value is its field's. */
export const sameAsFlag = <A>(flag: (fallback: A) => Flag.Flag<A>, fallback: A): OptionFlag<A, A> =>
  optionFlag({ flag, fallback, fill: (value) => value })

/** Any table of option flags, keyed by the field each fills. */
export type OptionFlags = { readonly [field: string]: OptionFlag<unknown, unknown> }

/** The fields a table fills, with the type each gets. */
export type OptionsOf<T extends OptionFlags> = { readonly [K in keyof T]: T[K] extends OptionFlag<infer _A, infer Field> ? Field : never }

type ValuesOf<T extends OptionFlags> = { readonly [K in keyof T]: T[K] extends OptionFlag<infer A, infer _Field> ? A : never }

/** The command's flags, keyed like the table, each with its fallback applied. */
export const flagsOf = <T extends OptionFlags>(table: T) =>
  // `Object.fromEntries` forgets which key holds which type; each key keeps its entry's, by construction.
  Object.fromEntries(
    Object.entries(table).map(([field, entry]) => [field, Flag.withDefault(entry.flag(entry.fallback), entry.fallback)])
  ) as { readonly [K in keyof T]: Flag.Flag<ValuesOf<T>[K]> }

/** The fields, from the flags' values as the command parsed them. */
export const optionsOf = <T extends OptionFlags>(table: T, values: ValuesOf<T>): OptionsOf<T> => {
  const byField: Readonly<Record<string, unknown>> = values
  return Object.fromEntries(Object.entries(table).map(([field, entry]) => [field, entry.fill(byField[field])])) as OptionsOf<T>
}

/** The fields when no flag is given: what each absent flag means. */
export const fallbacksOf = <T extends OptionFlags>(table: T): OptionsOf<T> =>
  Object.fromEntries(Object.entries(table).map(([field, entry]) => [field, entry.fill(entry.fallback)])) as OptionsOf<T>

/**
 * An integer flag that must lie in `[min, max]`, with a message naming the bound; when `env` is given,
 * that environment variable stands in for an absent flag (containers set `PORT`).
 */
export const boundedInt = (name: string, metavar: string, min: number, max: number, description: string, env?: string) =>
  (fallback: number) =>
    Flag.Int(name).pipe(
      Flag.withMetavar(metavar),
      (flag) => (env === undefined ? flag : Flag.withFallbackConfig(flag, Config.Int(env))),
      Flag.filter(
        (n) => n >= min && n <= max,
        () => `an integer from ${min} to ${max}`
      ),
      Flag.withDescription(`${description} (default ${env === undefined ? "" : `$${env}, else `}${fallback})`)
    )

/** A flag that switches something on (or off, for a `--no-…`) when given. */
export const switchFlag = (name: string, description: string) => () =>
  Flag.Boolean(name).pipe(Flag.withDescription(description))
