import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { identity } from "effect/Function"
import { jsonListText } from "./JsonListText.ts"

/**
 * A wire shape: one description of a JSON form of the model.
 *
 * - `wire`: the JSON, as a pure Schema. It checks (a 400's words come from its annotations, see
 *   WireSchema.ts) and documents (the OpenAPI document is compiled from it); it changes nothing, so
 *   Effect's schema compiler makes it one quick pass, and what it accepts is read as it is.
 * - `read`: JSON the wire schema accepted → the model. `write`: the model → JSON.
 *
 * Nested shapes compose part by part: a wire schema holds the wire schemas of its fields, and its `read`
 * and `write` call theirs, so that checking a body is one compiled pass and the mapping plain functions.
 * (A Schema transformation per field would do the same work through Effect's general parser, several
 * times slower and with a lot more garbage per request.)
 */
export interface WirePart<T, W> {
  readonly wire: Wire<W>
  readonly read: (json: W) => T
  readonly write: (value: T) => W
  /** A cheaper check of the shape's most common form, where it has one: see `SurelyRead`. */
  readonly surely?: SurelyRead<W>
}

/**
 * A check of a shape's most common form without its schema (a read's body of selectors by id): `true`
 * only of JSON the wire schema accepts, which is then read as it is; `false` says nothing, and the schema
 * decides (and words a refusal). test/vocabulary/compiled holds it to the schema.
 */
export type SurelyRead<W> = (json: unknown) => json is W

/** The schema of a JSON form: its type is the JSON it accepts, checked and branded, not transformed. */
export type Wire<W> = Schema.Top & Schema.Decoder<W>

/**
 * A shape a vocabulary exports: a part with the domain's Schema of what it reads (`model`, whose
 * arbitrary and equivalence serve the laws). Other descriptions compose its parts (the simulator's
 * home file checks values and kinds with `wire` and reads them with `read`).
 */
export interface WireShape<T, W> extends WirePart<T, W> {
  readonly model: Schema.Codec<T, unknown>
  /** The JSON text of a value in pieces made as they are read, for a shape whose written form may be long (a list: JsonListText). */
  readonly jsonText?: (value: T) => Iterable<string>
}

/** A shape a vocabulary cannot always write (a request's): `write` answers why, for a value it has no words for. */
export interface PartialWireShape<T, W> {
  readonly wire: Wire<W>
  readonly read: (json: W) => T
  readonly write: (value: T) => Result.Result<W, string>
  readonly model: Schema.Codec<T, unknown>
  readonly surely?: SurelyRead<W>
}

/** A part read and written as it is: the wire's type is the model's. */
export const plain = <S extends Schema.Top & Schema.Decoder<unknown>>(wire: S): WirePart<S["Type"], S["Type"]> => ({
  wire,
  read: identity,
  write: identity
})

export const wireShape = <T, W>(
  part: WirePart<T, W>,
  model: Schema.Codec<T, unknown>,
  jsonText?: (value: T) => Iterable<string>
): WireShape<T, W> => jsonText === undefined ? { ...part, model } : { ...part, model, jsonText }

export const partialWireShape = <T, W>(parts: {
  readonly wire: Wire<W>
  readonly read: (json: W) => T
  readonly write: (value: T) => Result.Result<W, string>
  readonly surely?: SurelyRead<W>
}, model: Schema.Codec<T, unknown>): PartialWireShape<T, W> => ({
  ...parts,
  model
})

/** Writes every item, or the first reason one cannot be written. */
export const writeEach = <T, W>(items: ReadonlyArray<T>, write: (item: T) => Result.Result<W, string>): Result.Result<ReadonlyArray<W>, string> => {
  const out: Array<W> = []
  for (const item of items) {
    const written = write(item)
    if (Result.isFailure(written)) return Result.fail(written.failure)
    out.push(written.success)
  }
  return Result.succeed(out)
}

/**
 * What a `read` gets from a check its wire schema already made (a timestamp's parse, a union's form): a
 * failure here is a bug of the shape, not the client's, and is thrown as a defect.
 */
export const checked = <A>(result: Result.Result<A, string>): A => {
  if (Result.isSuccess(result)) return result.success
  throw new Error(`a wire schema accepted what its read refuses: ${result.failure}`)
}

/** The part with more annotations on its wire schema (a name and description for the document). */
export const annotated = <T, W>(part: WirePart<T, W>, annotations: Schema.Annotations.Annotations): WirePart<T, W> => ({
  ...part,
  wire: part.wire.annotate(annotations) as Wire<W>
})

/** A list of `item`s, read and written item by item; `order` puts what is written in the list's order. */
export const listOf = <T, W>(
  item: WireShape<T, W>,
  annotations: Schema.Annotations.Annotations,
  order: (items: ReadonlyArray<T>) => ReadonlyArray<T> = identity
): WireShape<ReadonlyArray<T>, ReadonlyArray<W>> =>
  wireShape({
    wire: Schema.Array(item.wire).annotate(annotations),
    read: (json) => json.map(item.read),
    write: (items) => order(items).map(item.write)
  }, Schema.Array(item.model), (items) => jsonListText(order(items), item.write))
