import * as Option from "effect/Option"
import { CONTROL_CHARACTERS } from "../../domain/Identifier.ts"

/**
 * What MQTT lets a topic be (MQTT 3.1.1 and 5.0, §1.5.3 and §4.7): at most 65,535 bytes of UTF-8,
 * well-formed, no NUL; a topic one publishes to holds no wildcard. mosquitto also refuses control
 * characters and noncharacters. A broker drops the connection of a client that sends anything else,
 * so a topic a bridge or a device names is checked before the gateway publishes or subscribes to it.
 * The gateway follows only plain topics (no wildcards), so one rule serves both.
 */

/** The longest topic MQTT carries, in bytes of UTF-8. */
export const MAX_TOPIC_BYTES = 65_535

const controlCharacter = new RegExp(`[${CONTROL_CHARACTERS}]`)
/** In a `u` expression a surrogate pair is one code point: only a lone surrogate matches. */
const loneSurrogate = /\p{Cs}/u
const noncharacter = /\p{Noncharacter_Code_Point}/u

/** Why `topic` is not a plain topic MQTT carries (`is empty`, said of what names it), or `None` when it is one. */
export const plainTopicProblem = (topic: string): Option.Option<string> => {
  if (topic === "") return Option.some("is empty")
  if (loneSurrogate.test(topic)) return Option.some("is not UTF-8")
  if (controlCharacter.test(topic)) return Option.some("holds a control character")
  if (noncharacter.test(topic)) return Option.some("holds a Unicode noncharacter")
  if (topic.includes("+") || topic.includes("#")) return Option.some("holds a wildcard (+ or #)")
  // A UTF-16 unit is at most 3 bytes of UTF-8: count only when it could be too long.
  if (topic.length * 3 > MAX_TOPIC_BYTES && Buffer.byteLength(topic, "utf8") > MAX_TOPIC_BYTES) {
    return Option.some("is too long for a topic (65,535 bytes of UTF-8)")
  }
  return Option.none()
}
