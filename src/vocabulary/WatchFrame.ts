import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type { WatchEvent, WatchRegistration } from "../domain/Watch.ts"
import * as A from "./a/index.ts"
import * as B from "./b/index.ts"
import type { Vocabulary } from "./ChannelTagBody.ts"
import { DOCS } from "./common/Docs.ts"
import type { Decoded } from "./common/InvalidInput.ts"
import type { Unexpressible } from "./common/Unexpressible.ts"
import { decode, decodeWith, encode } from "./common/WireIssue.ts"

/**
 * The two vocabularies of the watch socket (docs/reference.md §7): which one a first frame speaks, how a frame
 * reads and how an event is written.
 */

const hasKey = (json: unknown, key: string): boolean =>
  json !== null && typeof json === "object" && !Array.isArray(json) && Object.hasOwn(json, key)

/**
 * The vocabulary of a socket's first frame when `?vocabulary=` does not say: vocabulary A's targets
 * are `{"source": …}`, B's `{"select": …}` (alone or in an array). Anything else reads as B, whose
 * error message then says what a frame should be.
 */
export const sniffWatchVocabulary = (json: unknown): Vocabulary => {
  const targets = Array.isArray(json) ? json : [json]
  return targets.some((target) => hasKey(target, "source")) ? "a" : "b"
}

/** The answer to a malformed frame: `{"Error": "<readable message>"}`; the registration before it stays. */
export const WatchFrameErrorJson = Schema.Struct({ Error: Schema.String }).annotate({
  identifier: "WatchFrameError",
  description: DOCS ? "The answer to a malformed frame on the watch socket: a readable message. The previous registration stays." : ""
})

/** What a client may send on the watch socket: a registration in either vocabulary. */
export const WatchFrameJson = Schema.Union([A.WatchFrameJson.wire, B.WatchFrameJson.wire]).annotate({
  description: DOCS ? "Registrations, in the socket's vocabulary." : ""
})

/** What the watch socket sends in vocabulary A: its events, or the answer to a malformed frame. */
const AServerFrameJson = Schema.Union([A.WatchEventJson.wire, WatchFrameErrorJson]).annotate({
  identifier: "AWatchEvent",
  description: DOCS ? "A frame the watch socket sends in vocabulary A." : ""
})

/** What the watch socket sends in vocabulary B: its events, or the answer to a malformed frame. */
const BServerFrameJson = Schema.Union([B.WatchEventJson.wire, WatchFrameErrorJson]).annotate({
  identifier: "BWatchEvent",
  description: DOCS ? "A frame the watch socket sends in vocabulary B." : ""
})

/** What the watch socket sends, in the socket's vocabulary. */
export const WatchServerFrameJson = Schema.Union([AServerFrameJson, BServerFrameJson]).annotate({
  description: DOCS ? "Frames the server sends, in the socket's vocabulary." : ""
})

export const decodeWatchFrame = (json: unknown, vocabulary: Vocabulary): Decoded<WatchRegistration> =>
  vocabulary === "a" ? decode(A.WatchFrameJson, json) : decode(B.WatchFrameJson, json)

/** The event as JSON in `vocabulary`; `None` when the vocabulary has no form for it (a refusal in A). */
export const encodeWatchEvent = (vocabulary: Vocabulary, event: WatchEvent): Option.Option<unknown> =>
  vocabulary === "a" ? A.encodeWatchEvent(event) : Option.some(B.WatchEventJson.write(event))

/** A registration as a client writes it in `vocabulary`, or why the vocabulary cannot say it. */
export const encodeWatchFrame = (vocabulary: Vocabulary, registration: WatchRegistration): Result.Result<unknown, Unexpressible> =>
  vocabulary === "a" ? encode(A.WatchFrameJson, registration) : encode(B.WatchFrameJson, registration)

/** What a client reads of a server frame: an event, or the server's answer to a malformed frame. */
export type WatchServerFrame = WatchEvent | { readonly _tag: "FrameRefused"; readonly message: string }

const readError = decodeWith({ wire: WatchFrameErrorJson, read: (json): WatchServerFrame => ({ _tag: "FrameRefused", message: json.Error }) })

/** A frame the server sent on a socket speaking `vocabulary`, as a client reads it. */
export const decodeWatchServerFrame = (vocabulary: Vocabulary, json: unknown): Decoded<WatchServerFrame> => {
  // Only a frame with an `Error` key is tried as a refusal: a failed decode builds an error, with its
  // stack trace, and the burst of a large home's first values would build one per event.
  if (hasKey(json, "Error")) {
    const refusal = readError(json)
    if (Result.isSuccess(refusal)) return refusal
  }
  return vocabulary === "a" ? decode(A.WatchEventJson, json) : decode(B.WatchEventJson, json)
}
