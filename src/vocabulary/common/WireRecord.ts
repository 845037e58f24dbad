import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { identity } from "effect/Function"
import type * as SchemaAST from "effect/SchemaAST"
import {
  type PartialWireShape,
  partialWireShape,
  plain,
  type Wire,
  type WirePart,
  type WireShape,
  wireShape
} from "./WireShape.ts"

/**
 * A wire shape that is a JSON object, described as a table of its fields, one line each: the wire name
 * (the table's key), the model field it fills, its wire part (schema, read, write) and its description.
 * The wire schema (a `Schema.Struct`, each field's description on its key), `read` and `write` all come
 * from the table, so a new field is one line.
 *
 * `read` and `write` are built once, as plain loops over the table: no Schema transformation runs on them
 * (why: docs/architecture.md, "Adding a field").
 */

/** A wire field as the record uses it: it fills the model fields `K` and reads JSON `W`. */
export interface WireField<K extends string, W, Optional extends boolean, Partial extends boolean = false> {
  /** The model fields it fills: one, or several for a part spread over the model. */
  readonly keys: ReadonlyArray<K>
  /** Whether the part reads several model fields (and writes from the whole value). */
  readonly spread: boolean
  /** The struct field: the part's wire schema, optional or not, with its description. */
  readonly wire: Schema.Top
  readonly read: (json: W) => unknown
  readonly write: (value: never) => unknown
  readonly optional: Optional
  /** What an absent optional field reads as, and which values are left out. */
  readonly absent: unknown
  readonly leftOut: (value: never) => boolean
  /** Whether `write` answers a Result (a part a vocabulary cannot always write). */
  readonly partial: Partial
}

/** What a partial part's `write` answers: the JSON, or why the value has no form. */
export interface PartialWirePart<T, W> {
  readonly wire: Wire<W>
  readonly read: (json: W) => T
  readonly write: (value: T) => Result.Result<W, string>
}

/** A field's wire part, or a wire schema read and written as it is. */
type PartOrSchema<V, W> = WirePart<V, W> | (Wire<W> & Schema.Codec<V, unknown>)

const partOf = <V, W>(part: PartOrSchema<V, W>): WirePart<V, W> =>
  (Schema.isSchema(part) ? plain(part) : part) as WirePart<V, W>

const never = (): boolean => false

const keyed = (wire: Schema.Top, optional: boolean, description: string | undefined): Schema.Top => {
  const field = optional ? Schema.optionalKey(wire) : wire
  return description === undefined ? field : field.annotateKey({ description })
}

/** How an optional field reads when absent (`absent`), and which values it leaves out (`leftOut`). */
export interface Absence<V> {
  readonly absent: V
  // A method, so that one absence serves every constraint or list (`Absence<Constraint<never>>`).
  leftOut(value: V): boolean
}

/** A list that may be absent: absent, it is empty; empty, it is left out. */
export const noItems: Absence<ReadonlyArray<never>> = { absent: [], leftOut: (items) => items.length === 0 }

/** The makers of a record's fields, typed by the model `T` they fill. */
export interface Fields<T> {
  /** A required field that fills the model field `model`. */
  readonly field: <K extends keyof T & string, W>(model: K, part: PartOrSchema<T[K], W>, description?: string) => WireField<K, W, false>
  /** An optional field: absent, it reads as `absence.absent`; a value `absence.leftOut` picks is not written. */
  readonly optional: <K extends keyof T & string, W>(
    model: K,
    part: PartOrSchema<T[K], W>,
    absence: Absence<T[K]>,
    description?: string
  ) => WireField<K, W, true>
  /** A required field whose part a vocabulary cannot always write (the record is then a partial one). */
  readonly partial: <K extends keyof T & string, W>(model: K, part: PartialWirePart<T[K], W>, description?: string) => WireField<K, W, false, true>
  /** An optional field whose part a vocabulary cannot always write. */
  readonly optionalPartial: <K extends keyof T & string, W>(
    model: K,
    part: PartialWirePart<T[K], W>,
    absence: Absence<T[K]>,
    description?: string
  ) => WireField<K, W, true, true>
  /** A field that reads several model fields (`keys`) from one wire value, and writes it from them. */
  readonly spread: <K extends keyof T & string, W>(
    keys: ReadonlyArray<K>,
    part: WirePart<Pick<T, K>, W>,
    description?: string
  ) => WireField<K, W, false>
}

// The record is typed from its table; each field was typed against the model when it was made.
type Table = Readonly<Record<string, WireField<string, never, boolean, boolean>>>

/** The table of a record every field of which can always be written. */
type TotalTable = Readonly<Record<string, WireField<string, never, boolean, false>>>

type JsonOf<F> = F extends { readonly read: (json: infer W) => unknown } ? W : never

/** The model keys the table fills. */
type Filled<F extends Table> = { [K in keyof F]: F[K]["keys"][number] }[keyof F]

/** The JSON a record accepts and writes. */
export type RecordJson<F extends Table> =
  & { readonly [K in keyof F as F[K]["optional"] extends true ? never : K]: JsonOf<F[K]> }
  & { readonly [K in keyof F as F[K]["optional"] extends true ? K : never]?: JsonOf<F[K]> }

/** The model fields no wire field fills, with the value every read gives them (a getter's `pushMs`, a role's mechanism). */
type Constants<T, F extends Table> = [Exclude<keyof T, Filled<F>>] extends [never] ? { readonly constants?: undefined }
  : { readonly constants: Omit<T, Filled<F>> }

export type RecordOptions<T, F extends Table> = Constants<T, F> & {
  /** Checks of the whole object (JSON Schema cannot state them: see `wireCheck`), before its annotations. */
  readonly checks?: ReadonlyArray<SchemaAST.Check<RecordJson<F>>>
  /** Its name in messages (`expected`) and in the document (`identifier`, `description`). */
  readonly annotations?: Schema.Annotations.Annotations
}

/** A field of `part`, filling `keys`; optional when it has an `absence`. */
const fieldOf = <K extends string, W, O extends boolean, P extends boolean>(
  keys: ReadonlyArray<K>,
  part: { readonly wire: Schema.Top; readonly read: (json: W) => unknown; readonly write: (value: never) => unknown },
  options: { readonly spread?: boolean; readonly partial?: boolean; readonly absence?: Absence<unknown> | undefined; readonly description?: string | undefined }
): WireField<K, W, O, P> => ({
  keys,
  spread: options.spread ?? false,
  wire: keyed(part.wire, options.absence !== undefined, options.description),
  read: part.read,
  write: part.write,
  optional: (options.absence !== undefined) as O,
  absent: options.absence?.absent,
  leftOut: options.absence === undefined ? never : options.absence.leftOut,
  partial: (options.partial ?? false) as P
})

/** The makers of the fields of a record of `model`: `const f = fieldsOf(Channel)`, then `f.field("id", ChannelIdJson)`. */
export const fieldsOf = <T>(_model: Schema.Codec<T, unknown>): Fields<T> => ({
  field: (model, part, description) => fieldOf([model], partOf(part), { description }),
  optional: (model, part, absence: Absence<unknown>, description) => fieldOf([model], partOf(part), { absence, description }),
  partial: (model, part, description) => fieldOf([model], part, { partial: true, description }),
  optionalPartial: (model, part, absence: Absence<unknown>, description) => fieldOf([model], part, { partial: true, absence, description }),
  spread: (keys, part, description) => fieldOf(keys, part, { spread: true, description })
})

/** One field as the loops read it: its wire name, its model field (`undefined` for a spread one), its functions. */
interface Step extends Pick<WireField<string, unknown, boolean, boolean>, "optional" | "absent" | "partial"> {
  readonly key: string
  readonly model: string | undefined
  readonly read: (json: unknown) => unknown
  readonly write: (value: unknown) => unknown
  readonly leftOut: (value: unknown) => boolean
}

const stepsOf = (table: Table): ReadonlyArray<Step> =>
  Object.entries(table).map(([key, field]): Step => ({
    key,
    model: field.spread ? undefined : field.keys[0],
    // Each field was typed against the model when it was made; the loops only move values.
    read: field.read as (json: unknown) => unknown,
    write: field.write as (value: unknown) => unknown,
    optional: field.optional,
    absent: field.absent,
    leftOut: field.leftOut as (value: unknown) => boolean,
    partial: field.partial
  }))

type Loose = Record<string, unknown>

/** Reads the JSON into a model object: constants, then each field (an absent optional one as its `absent`). */
const reader = (steps: ReadonlyArray<Step>, constants: object | undefined) => (json: Loose): Loose => {
  const out: Loose = { ...constants }
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as Step
    const value = json[step.key]
    if (step.model === undefined) Object.assign(out, step.read(value))
    else out[step.model] = value === undefined && step.optional ? step.absent : step.read(value)
  }
  return out
}

/** The model value of a field (the whole value for a spread one). */
const modelValueOf = (step: Step, value: Loose): unknown => (step.model === undefined ? value : value[step.model])

/** Writes each field in the table's order, leaving out what an optional field's `leftOut` picks. */
const writer = (steps: ReadonlyArray<Step>) => {
  const fixed = fixedStart(steps)
  return (value: Loose): Loose => {
    const out: Loose = { ...fixed }
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i] as Step
      const field = modelValueOf(step, value)
      if (!step.optional || !step.leftOut(field)) out[step.key] = step.write === identity ? field : step.write(field)
    }
    return out
  }
}

/**
 * The fields written before the first optional one, each `null`: every written object starts as a copy of
 * it, so it has its final hidden class at once and its fields are stores into existing slots, not one
 * new hidden class per field found through the generic store's cache (a large home's listing writes
 * over a million records).
 */
const fixedStart = (steps: ReadonlyArray<Step>): Loose => {
  const start: Loose = {}
  for (const step of steps) {
    if (step.optional) break
    start[step.key] = null
  }
  return start
}

/** As `writer`, for a table with partial fields: the first reason a field cannot be written fails it all. */
const partialWriter = (steps: ReadonlyArray<Step>) => (value: Loose): Result.Result<Loose, string> => {
  const out: Loose = {}
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as Step
    const field = modelValueOf(step, value)
    if (step.leftOut(field)) continue
    const written = step.write(field)
    if (!step.partial) out[step.key] = written
    else if (Result.isSuccess(written as Result.Result<unknown, string>)) out[step.key] = (written as Result.Success<unknown, string>).success
    else return written as Result.Failure<never, string>
  }
  return Result.succeed(out)
}

const wireOf = (table: Table, options: { readonly checks?: ReadonlyArray<SchemaAST.Check<never>>; readonly annotations?: Schema.Annotations.Annotations }) => {
  const struct = Schema.Struct(Object.fromEntries(Object.entries(table).map(([key, field]) => [key, field.wire])))
  // The checks were typed against the record's JSON, which is what the struct accepts.
  const [first, ...rest] = (options.checks ?? []) as ReadonlyArray<SchemaAST.Check<unknown>>
  const checked = first === undefined ? struct : struct.check(first, ...rest)
  return options.annotations === undefined ? checked : checked.annotate(options.annotations)
}

/** The wire schema and `read` of a record, and the steps its `write` walks. */
const recordOf = <T, F extends Table>(table: F, options: RecordOptions<T, NoInfer<F>>) => {
  const steps = stepsOf(table)
  return {
    steps,
    wire: wireOf(table, options) as unknown as Wire<RecordJson<F>>,
    read: reader(steps, options.constants) as (json: RecordJson<F>) => T
  }
}

/** A record whose every field can always be written. */
export const wireRecord = <T, F extends TotalTable>(
  model: Schema.Codec<T, unknown>,
  table: F,
  options: RecordOptions<T, NoInfer<F>>
): WireShape<T, RecordJson<F>> => {
  const { steps, wire, read } = recordOf<T, F>(table, options)
  return wireShape({ wire, read, write: writer(steps) as (value: T) => RecordJson<F> }, model)
}

/** A record with a field a vocabulary cannot always write: its `write` answers why, for a value it has no words for. */
export const partialWireRecord = <T, F extends Table>(
  model: Schema.Codec<T, unknown>,
  table: F,
  options: RecordOptions<T, NoInfer<F>>
): PartialWireShape<T, RecordJson<F>> => {
  const { steps, wire, read } = recordOf<T, F>(table, options)
  return partialWireShape({ wire, read, write: partialWriter(steps) as (value: T) => Result.Result<RecordJson<F>, string> }, model)
}
