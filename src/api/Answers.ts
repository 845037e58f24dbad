import { TagCountJson } from "../vocabulary/common/TagCountJson.ts"
import type { Answer } from "./Endpoint.ts"

/** What a tag operation answers, in both vocabularies. */
export const tagCount: Answer = { status: 200, schema: TagCountJson, description: "How many things matched any selector." }

/** Said of both vocabularies' reads of values (the server's content negotiation). */
export const loneBinary = " When the read answers exactly one channel with a Binary value and `Accept` prefers that value's " +
  "mimetype to JSON (`image/jpeg`, `image/*`), the answer is the bytes themselves with that `Content-Type`."
