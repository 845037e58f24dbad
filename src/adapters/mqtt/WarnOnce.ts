import * as Effect from "effect/Effect"

/**
 * Warnings about what devices send, each logged once: a bridge that repeats a malformed message (on
 * every reconnection, its retained configs come again) fills no log. What it remembers, and what it
 * quotes of a device's text, is bounded: a device chooses that text, and its length.
 */

/** The warnings remembered, the oldest forgotten first (it may then be said again). */
export const warningsRemembered = 1_000
/** A warning is remembered by its first characters, at most these many. */
export const warningKeyLength = 256
/** Text a device sent (a template, a topic) is quoted in a log line up to this many characters. */
export const quotedLength = 256

/** `text`, cut with "…" to `quotedLength` characters (a surrogate pair is not split). */
export const quoted = (text: string): string => {
  if (text.length <= quotedLength) return text
  const cut = text.slice(0, quotedLength - 1)
  const last = cut.charCodeAt(cut.length - 1)
  return `${last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut}…`
}

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
