import * as Effect from "effect/Effect"
import { boundedText } from "./DeviceText.ts"

/**
 * Warnings about what devices send, each logged once: a bridge that repeats a malformed message (on
 * every reconnection, its retained configs come again) fills no log. What it remembers, and what it
 * quotes of a device's text, is bounded: a device chooses that text, and its length.
 */

/** The warnings remembered, the oldest forgotten first (it may then be said again). */
export const warningsRemembered = 1_000
/** A warning is remembered by its first characters, at most these many. */
export const warningKeyLength = 256
/** Text a device sent (a template, a topic) as a log line quotes it: cut as the API cuts device text. */
export const quoted = boundedText

export const makeWarnOnce = () => {
  const warned = new Set<string>()
  const warnOnce = (message: string) =>
    Effect.suspend(() => {
      const key = message.slice(0, warningKeyLength)
      if (warned.has(key)) return Effect.void
      warned.add(key)
      if (warned.size > warningsRemembered) {
        for (const oldest of warned) {
          warned.delete(oldest)
          break
        }
      }
      return Effect.logWarning(message)
    })
  return { warnOnce, remembered: () => warned.size }
}
