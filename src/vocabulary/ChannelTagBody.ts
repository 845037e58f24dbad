import { Result } from "effect"
import type { TagRequest } from "../domain/Request.ts"
import type { ChannelSelector } from "../domain/Selector.ts"
import * as A from "./a/index.ts"
import * as B from "./b/index.ts"
import type { Decoded } from "./common/JsonInput.ts"

/** Which vocabulary reads a body of the shared `/api/v1/channels/tag` path. */
export type Vocabulary = "a" | "b"

const decoders: Record<Vocabulary, (json: unknown) => Decoded<TagRequest<ChannelSelector>>> = {
  a: (json) => A.decodeChannelTagBody(json),
  b: (json) => B.decodeChannelTagBody(json)
}

/** Vocabulary A wraps `id`, `parent` and `kind` in `{"Exactly": …}` / `{"Empty": []}` / `{"Conflict": []}`. */
const looksLikeA = (json: unknown): boolean => {
  if (Array.isArray(json)) return json.some(looksLikeA)
  if (json === null || typeof json !== "object") return false
  return Object.entries(json).some(([key, value]) =>
    key === "Exactly" || key === "Empty" || key === "Conflict" || key === "parent" || looksLikeA(value)
  )
}

/**
 * Decodes a channel tag body in the vocabulary forced by `?vocabulary=`, or else in whichever
 * vocabulary reads it (wire.md §6). A body that reads both ways means the same thing both ways, so B is
 * tried first; when neither reads it, the error is the one of the vocabulary the body looks like.
 */
export const decodeChannelTagBody = (
  json: unknown,
  forced: Vocabulary | undefined
): Decoded<TagRequest<ChannelSelector>> => {
  if (forced !== undefined) return decoders[forced](json)
  const asB = decoders.b(json)
  if (Result.isSuccess(asB)) return asB
  const asA = decoders.a(json)
  if (Result.isSuccess(asA)) return asA
  return looksLikeA(json) ? asA : asB
}
