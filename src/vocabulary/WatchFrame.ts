import { Option } from "effect"
import type { WatchEvent, WatchRegistration } from "../domain/Watch.ts"
import * as A from "./a/index.ts"
import * as B from "./b/index.ts"
import type { Vocabulary } from "./ChannelTagBody.ts"
import type { Decoded } from "./common/InvalidInput.ts"

/**
 * The two vocabularies of the watch socket (wire.md §7): which one a first frame speaks, how a frame
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

export const decodeWatchFrame = (json: unknown, vocabulary: Vocabulary): Decoded<WatchRegistration> =>
  vocabulary === "a" ? A.decodeWatchFrame(json) : B.decodeWatchFrame(json)

/** The event as JSON in `vocabulary`; `None` when the vocabulary has no form for it (a refusal in A). */
export const encodeWatchEvent = (vocabulary: Vocabulary, event: WatchEvent): Option.Option<unknown> =>
  vocabulary === "a" ? A.encodeWatchEvent(event) : Option.some(B.encodeWatchEvent(event))
