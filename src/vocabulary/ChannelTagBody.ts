import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type { TagRequest } from "../domain/Request.ts"
import type { ChannelSelector } from "../domain/Selector.ts"
import * as A from "./a/index.ts"
import * as B from "./b/index.ts"
import { DOCS } from "./common/Docs.ts"
import type { Decoded } from "./common/InvalidInput.ts"
import type { Unexpressible } from "./common/Unexpressible.ts"
import { decode, encode } from "./common/WireIssue.ts"

/** Which vocabulary reads a body of the shared `/api/v1/channels/tag` path. */
export type Vocabulary = "a" | "b"

const decoders: Record<Vocabulary, (json: unknown) => Decoded<TagRequest<ChannelSelector>>> = {
  a: (json) => decode(A.ChannelTagBodyJson, json),
  b: (json) => decode(B.ChannelTagBodyJson, json)
}

/** The body of `/api/v1/channels/tag`, as the document describes it: either vocabulary's. */
export const ChannelTagBodyJson = Schema.Union([B.ChannelTagBodyJson.wire, A.ChannelTagBodyJson.wire]).annotate({
  identifier: "ChannelTagBody",
  description: DOCS ? "A channel tag body of either vocabulary. The body tells which (an A selector wraps `id`, " +
    "`parent` and `kind` in `{\"Exactly\": …}`); a body that reads both ways means the same both ways." : ""
})

const aMarkers = new Set(["Exactly", "Empty", "Conflict", "parent"])

/**
 * Vocabulary A wraps `id`, `parent` and `kind` in `{"Exactly": …}` / `{"Empty": []}` / `{"Conflict": []}`.
 * Walked with an explicit stack, not recursion: a client's body may nest as deep as it likes.
 */
const looksLikeA = (json: unknown): boolean => {
  const pending: Array<unknown> = [json]
  while (pending.length > 0) {
    const item = pending.pop()
    if (Array.isArray(item)) {
      for (const element of item) pending.push(element)
    } else if (item !== null && typeof item === "object") {
      for (const [key, value] of Object.entries(item)) {
        if (aMarkers.has(key)) return true
        pending.push(value)
      }
    }
  }
  return false
}

/** A channel tag body, and the vocabulary it was read in. */
export interface TagBodyRead {
  readonly vocabulary: Vocabulary
  readonly request: TagRequest<ChannelSelector>
}

const readIn = (vocabulary: Vocabulary, json: unknown): Decoded<TagBodyRead> =>
  Result.map(decoders[vocabulary](json), (request) => ({ vocabulary, request }))

/**
 * Reads a channel tag body in the vocabulary forced by `?vocabulary=`, or else in whichever
 * vocabulary reads it (docs/reference.md §6.5). A body that reads both ways means the same thing both ways, so B is
 * tried first; when neither reads it, the error is the one of the vocabulary the body looks like.
 */
export const readChannelTagBody = (json: unknown, forced: Vocabulary | undefined): Decoded<TagBodyRead> => {
  if (forced !== undefined) return readIn(forced, json)
  const asB = readIn("b", json)
  if (Result.isSuccess(asB)) return asB
  const asA = readIn("a", json)
  if (Result.isSuccess(asA)) return asA
  return looksLikeA(json) ? asA : asB
}

/** A channel tag body written in `vocabulary` (a client sends it with `?vocabulary=` saying which). */
export const encodeChannelTagBody = (
  request: TagRequest<ChannelSelector>,
  vocabulary: Vocabulary
): Result.Result<unknown, Unexpressible> =>
  vocabulary === "a" ? encode(A.ChannelTagBodyJson, request) : encode(B.ChannelTagBodyJson, request)

/** `readChannelTagBody`'s request alone. */
export const decodeChannelTagBody = (json: unknown, forced: Vocabulary | undefined): Decoded<TagRequest<ChannelSelector>> =>
  Result.map(readChannelTagBody(json, forced), (read) => read.request)
