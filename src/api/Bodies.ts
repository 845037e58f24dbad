import * as Option from "effect/Option"
import type * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import { DOCS } from "../vocabulary/common/Docs.ts"
import { decodeWith, encode } from "../vocabulary/common/WireIssue.ts"
import type { Body } from "./Endpoint.ts"

/**
 * What a body is read and written with: a wire shape's schema, its `read`, and its `write`, which answers
 * why for a value the vocabulary has no words for when the shape is partial (src/vocabulary).
 */
export interface Readable<T, W> {
  readonly wire: Schema.Top & Schema.Decoder<W>
  readonly read: (json: W) => T
  readonly write: (value: T) => W | Result.Result<W, string>
}

/** A body read with a shape, whatever the query says. */
const bodyOf = <T, W>(shape: Readable<T, W>, whenAbsent: Option.Option<T>, description: string): Body<T, {}> => {
  const decode = decodeWith(shape)
  return { schema: shape.wire, description, whenAbsent, read: (json) => decode(json), write: (value) => encode(shape, value) }
}

/** A read's selectors: optional, and none (or a blank body) means `everything`, which `whom` names. */
export const readBody = <T, W>(shape: Readable<T, W>, everything: T, whom: string): Body<T, {}> =>
  bodyOf(
    shape,
    Option.some(everything),
    DOCS ? "Selectors: a thing matches if it matches any, and `[]` matches nothing. " +
      `No body (or a blank one) means ${whom}.` : ""
  )

/** A write's or a tag operation's body: required. */
export const writeBody = <T, W>(shape: Readable<T, W>, description: string): Body<T, {}> =>
  bodyOf(shape, Option.none(), description)
