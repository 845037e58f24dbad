import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { TokenCreations } from "./TokenCreations.ts"

/**
 * The creations of one gateway, in its memory (a restart forgets, which lets a token start over only as
 * slowly): what one gateway on SQLite uses. Each user keeps at most `limit` places.
 */
export const TokenCreationsInMemory = Layer.sync(TokenCreations, () => {
  const recent = new Map<string, Array<{ readonly at: number }>>()
  return TokenCreations.of({
    hold: (user, limit, windowMs) =>
      Effect.sync(() => {
        const now = Date.now()
        const places = (recent.get(user) ?? []).filter((place) => place.at > now - windowMs)
        const oldest = places[places.length - limit]
        if (oldest !== undefined) {
          recent.set(user, places)
          return Result.fail(oldest.at + windowMs - now)
        }
        const place = { at: now }
        recent.set(user, [...places, place])
        return Result.succeed(Effect.sync(() => {
          const kept = (recent.get(user) ?? []).filter((other) => other !== place)
          if (kept.length === 0) recent.delete(user)
          else recent.set(user, kept)
        }))
      })
  })
})
