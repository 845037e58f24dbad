import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { identity } from "effect/Function"
import type { Vocabulary } from "../vocabulary/ChannelTagBody.ts"
import { InvalidInput } from "../vocabulary/common/InvalidInput.ts"
import { decodeWith } from "../vocabulary/common/WireIssue.ts"
import type { QueryParameter } from "./Endpoint.ts"

/** A query parameter whose value is read with `schema` (its words, the `expected` annotation, make a 400's). */
export const queryParameter = <S extends Schema.Top & Schema.Decoder<unknown>>(
  schema: S,
  description: string
): QueryParameter<S["Type"]> => {
  const decode = decodeWith({ wire: schema, read: identity<S["Type"]> })
  return { schema, description, read: (text) => decode(text) }
}

const VocabularyName: Schema.Codec<Vocabulary> = Schema.Literals(["a", "b"]).annotate({ expected: "\"a\" or \"b\"" })

/** `?vocabulary=a|b`: which vocabulary a body or a socket speaks, when its shape is not to tell. */
export const vocabularyParameter = (description: string) => queryParameter(VocabularyName, description)

/**
 * A whole number written in decimal digits, from `minimum` (and to `maximum`, if given). The text is read
 * here, not by a schema: a query's value is text, and its schema documents the number it stands for.
 */
export const integerParameter = (bounds: { readonly minimum: number; readonly maximum?: number }, description: string): QueryParameter<number> => {
  const { minimum, maximum = Number.MAX_SAFE_INTEGER } = bounds
  const expected = bounds.maximum === undefined ? `expected an integer of at least ${minimum}` : `expected an integer from ${minimum} to ${maximum}`
  return {
    schema: Schema.Int.check(bounds.maximum === undefined ? Schema.isGreaterThanOrEqualTo(minimum) : Schema.isBetween({ minimum, maximum })),
    description,
    read: (text) => {
      const value = /^[0-9]{1,16}$/.test(text) ? Number(text) : Number.NaN
      return value >= minimum && value <= maximum
        ? Result.succeed(value)
        : Result.fail(new InvalidInput({ path: [], reason: `${expected}, got ${JSON.stringify(text)}` }))
    }
  }
}
