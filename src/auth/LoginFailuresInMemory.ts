import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { LoginFailures, type Tally } from "./LoginFailures.ts"

/** One failed login, listed under its username and under its address. */
interface Failure {
  readonly at: number
  readonly address: string
  cleared: boolean
}

/** Usernames, and addresses, remembered at most, so that a flood of made-up usernames cannot grow memory without bound. */
const maxKeys = 10_000

/**
 * The failed logins of one gateway, in its memory: a restart forgets them, which only lets an attacker
 * start over as slowly. What one gateway on SQLite uses: nothing else counts with it.
 */
export const LoginFailuresInMemory = Layer.sync(LoginFailures, () => {
  const byUser = new Map<string, Array<Failure>>()
  const byAddress = new Map<string, Array<Failure>>()

  /** The failures of `key` within the window, oldest first; a key left with none is forgotten. */
  const recent = (map: Map<string, Array<Failure>>, key: string, now: number, windowMs: number): Array<Failure> => {
    const kept = (map.get(key) ?? []).filter((failure) => now - failure.at < windowMs)
    if (kept.length === 0) map.delete(key)
    else map.set(key, kept)
    return kept
  }
  const keep = (map: Map<string, Array<Failure>>, key: string, failure: Failure, windowMs: number) => {
    if (!map.has(key) && map.size >= maxKeys) {
      const first = map.keys().next()
      if (first.done !== true) map.delete(first.value)
    }
    map.set(key, [...recent(map, key, failure.at, windowMs), failure])
  }
  const tallyOf = (failures: ReadonlyArray<Failure>, limit: number, now: number, windowMs: number): Tally => {
    const counted = failures.slice(Math.max(0, failures.length - limit))
    const oldest = counted[0]
    return { failures: counted.length, oldestLeavesInMs: oldest === undefined ? 0 : oldest.at + windowMs - now }
  }

  return LoginFailures.of({
    tally: (username, address, limits, windowMs) =>
      Effect.sync(() => {
        const now = Date.now()
        const ofUser = recent(byUser, username, now, windowMs).filter((failure) => !failure.cleared)
        return {
          pair: tallyOf(ofUser.filter((failure) => failure.address === address), limits.pair, now, windowMs),
          user: tallyOf(ofUser, limits.user, now, windowMs),
          address: tallyOf(recent(byAddress, address, now, windowMs), limits.address, now, windowMs)
        }
      }),
    add: (username, address, cleared, windowMs) =>
      Effect.sync(() => {
        const failure = { at: Date.now(), address, cleared }
        keep(byUser, username, failure, windowMs)
        keep(byAddress, address, failure, windowMs)
      }),
    clear: (username, address) =>
      Effect.sync(() => {
        for (const failure of byUser.get(username) ?? []) if (failure.address === address) failure.cleared = true
      })
  })
})
