import * as Schema from "effect/Schema"

/** The longest identifier or tag, in characters (docs/reference.md §1). */
export const MAX_IDENTIFIER_LENGTH = 256

/** The characters no identifier or tag may hold (C0, DEL, C1), as the body of a regular-expression class. */
export const CONTROL_CHARACTERS = "\\u0000-\\u001f\\u007f-\\u009f"
const controlCharacter = new RegExp(`[${CONTROL_CHARACTERS}]`)

/** Control characters are refused in identifiers and tags: they break logs, headers and terminals. */
const hasNoControlCharacters = Schema.makeFilter<string>(
  (s) => !controlCharacter.test(s) || "must not contain control characters",
  { toJsonSchema: () => ({ pattern: `^[^${CONTROL_CHARACTERS}]*$` }) }
)

/** Characters are Unicode code points, as in JSON Schema's `maxLength`: an emoji is one, not two UTF-16 units. */
const hasAtMost256Characters = Schema.makeFilter<string>(
  // A string is never longer in code points than in UTF-16 units: count only when it could be too long.
  (s) =>
    s.length <= MAX_IDENTIFIER_LENGTH || [...s].length <= MAX_IDENTIFIER_LENGTH ||
    `must be at most ${MAX_IDENTIFIER_LENGTH} characters`,
  // JSON Schema counts code points too.
  { toJsonSchema: () => ({ maxLength: MAX_IDENTIFIER_LENGTH }) }
)

/** Identifiers and tags share one textual rule (docs/reference.md §1): non-empty, at most 256 characters, no control characters. */
const BoundedText = Schema.String.check(
  Schema.isMinLength(1, { message: "must not be empty" }),
  hasAtMost256Characters,
  hasNoControlCharacters
)

/**
 * Text the identifiers' rule surely accepts, told without the schema: non-empty, no control characters, and
 * at most 256 UTF-16 units (a longer text may still be within the rule, counted in code points: not told here).
 */
export const surelyBoundedText = (text: string): boolean =>
  text.length >= 1 && text.length <= MAX_IDENTIFIER_LENGTH && !controlCharacter.test(text)

/**
 * Words for a person, such as a token's label: an identifier's rule but for emptiness, since the label
 * is printed where control characters would break a line or a terminal (`gateway tokens list`).
 */
export const Label = Schema.String.check(hasAtMost256Characters, hasNoControlCharacters)

/** A device (vocabulary A: node, vocabulary B: service). */
export const ServiceId = BoundedText.pipe(Schema.brand("ServiceId"))
export type ServiceId = typeof ServiceId.Type

/** A channel of either mechanism (input/getter or output/setter); unique across the gateway. */
export const ChannelId = BoundedText.pipe(Schema.brand("ChannelId"))
export type ChannelId = typeof ChannelId.Type

/** An adapter: the bridge that brings a family of devices in (`<name>@<domain>`). */
export const AdapterId = BoundedText.pipe(Schema.brand("AdapterId"))
export type AdapterId = typeof AdapterId.Type

/** A free-form label a client puts on a service or a channel. */
export const Tag = BoundedText.pipe(Schema.brand("Tag"))
export type Tag = typeof Tag.Type

/** Sorted, duplicate-free tags: the canonical form of a tag set everywhere in the model. */
export const normalizeTags = (tags: Iterable<Tag>): ReadonlyArray<Tag> =>
  isList(tags) && isStrictlyAscending(tags) ? tags : [...new Set(tags)].sort()

const isList = (tags: Iterable<Tag>): tags is ReadonlyArray<Tag> => Array.isArray(tags)

/** Tags the index hands out are already canonical: answers write them as they are. */
const isStrictlyAscending = (tags: ReadonlyArray<Tag>): boolean => {
  let previous: Tag | undefined
  for (const tag of tags) {
    if (previous !== undefined && previous >= tag) return false
    previous = tag
  }
  return true
}
