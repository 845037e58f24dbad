import * as fc from "fast-check"
import { codePoint } from "./codePoint.ts"

/**
 * Text where a body names a channel, near the identifiers' rule's edges: empty, control characters, 256
 * and 257 UTF-16 units, astral code points, and JSON that is not text at all.
 */
export const idText = fc.oneof(
  fc.string({ unit: codePoint, maxLength: 8 }),
  fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 24 }),
  fc.constantFrom("", "getter:lamp@home", "a\u0000b", "a\u009fb", "\u007f", "x".repeat(256), "x".repeat(257), "😀".repeat(128), "😀".repeat(129)),
  fc.jsonValue({ maxDepth: 1 })
)
