import * as Schema from "effect/Schema"
import { identity } from "effect/Function"
import type { Vocabulary } from "../vocabulary/ChannelTagBody.ts"
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
