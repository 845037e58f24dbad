import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import { type Generation, TokenStore } from "./TokenStore.ts"

/** Watch sockets one token may hold open at once: a leaked or stolen token cannot exhaust the server. */
export const maxWatchSocketsPerToken = 16

/** Watch sockets all the tokens of one user may hold open at once: the tokens a stolen one creates do not multiply its cap. */
export const maxWatchSocketsPerUser = 64

/** The least time between two looks at the tokens of open sockets, however fast the store changes. */
const minimumSpacing = Duration.millis(50)

/** Whose cap a socket would pass: its token's, or its user's (all their tokens together). */
export type SocketHolder = "token" | "user"

export class TooManySockets extends Data.TaggedError("TooManySockets")<{ readonly limit: number; readonly holder: SocketHolder }> {
  override get message(): string {
    return this.holder === "token"
      ? `this token already holds ${this.limit} watch sockets, the most it may`
      : `the tokens of this user already hold ${this.limit} watch sockets, the most one user may; close some, or revoke the tokens that hold them`
  }
}

export interface LiveSocketsShape {
  /**
   * Counts one socket for `tokenId` and its `user` until the scope closes; fails past either cap (answer
   * 429 before the upgrade). Answers the socket's `tokenEnded`: an effect that succeeds once the token is
   * no longer good, at once if it is not good now.
   */
  readonly acquire: (tokenId: number, user: string) => Effect.Effect<Effect.Effect<void>, TooManySockets, Scope.Scope>
  /** Sockets open now for `tokenId`. */
  readonly count: (tokenId: number) => Effect.Effect<number>
  /** Ends the sockets of `tokenId` now: this process revoked it (a logout). */
  readonly end: (tokenId: number) => Effect.Effect<void>
}

export interface LiveSocketsOptions {
  /** How late a revocation by another process may reach the sockets of its token. */
  readonly tokenRecheck: Duration.Input
  /** Sockets one token may hold open at once; `maxWatchSocketsPerToken` unless told. */
  readonly limit?: number
  /** Sockets one user's tokens may hold open at once; `maxWatchSocketsPerUser` unless told. */
  readonly userLimit?: number
}

/**
 * Live watch sockets per token and per user, for the caps of docs/reference.md §9, and the end of their token. A
 * token ends at its expiry (a timer per socket), at once when this process revokes it (`end`), and,
 * when another process revokes it or removes its user: as soon as the store hears of it (`changed`:
 * another replica's change, by PostgreSQL's notice), else within `tokenRecheck` (the command line's on
 * SQLite): then each token with open sockets is looked up again.
 */
export class LiveSockets extends Context.Service<LiveSockets, LiveSocketsShape>()("app/LiveSockets") {
  static readonly layer = ({ tokenRecheck, limit = maxWatchSocketsPerToken, userLimit = maxWatchSocketsPerUser }: LiveSocketsOptions) =>
    Layer.effect(
      LiveSockets,
      Effect.gen(function*() {
        const tokens = yield* TokenStore
        // Per token, one deferred per open socket, done when the token ends.
        const open = new Map<number, Set<Deferred.Deferred<void>>>()
        // Per user name, the sockets of all their tokens.
        const openByUser = new Map<string, number>()

        const end = (tokenId: number) =>
          Effect.sync(() => {
            for (const ended of open.get(tokenId) ?? []) Deferred.doneUnsafe(ended, Effect.void)
          })

        /** Until when the token is good; `None`: not now. A store that cannot answer cannot vouch for it either. */
        const goodUntil = (tokenId: number) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) => tokens.validUntil(tokenId, now)).pipe(
            Effect.orElseSucceed(() => Option.none<number>())
          )

        let checkedIn: Generation | undefined
        const recheck = Effect.gen(function*() {
          if (open.size === 0) return
          const generation = tokens.generation()
          if (generation === checkedIn) return
          checkedIn = generation
          for (const tokenId of [...open.keys()]) {
            if (Option.isNone(yield* goodUntil(tokenId))) yield* end(tokenId)
          }
        })
        // On a change the store hears of as it happens (another replica's revocation), at once; else on the timer.
        // A burst of changes is looked at once per `minimumSpacing`, not once per change.
        const nextLook = Effect.raceFirst(Effect.sleep(tokenRecheck), tokens.changed)
        yield* Effect.forkScoped(Effect.forever(Effect.andThen(nextLook, Effect.andThen(recheck, Effect.sleep(minimumSpacing)))))

        /** Succeeds once `ended` is done or the token's expiry has come. */
        const tokenEnded = (tokenId: number, ended: Deferred.Deferred<void>) =>
          Effect.gen(function*() {
            const until = yield* goodUntil(tokenId)
            if (Option.isNone(until)) return
            const expiry = Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.sleep(Duration.millis(until.value - now)))
            yield* Effect.raceFirst(Deferred.await(ended), expiry)
          })

        const release = (tokenId: number, user: string, ended: Deferred.Deferred<void>) =>
          Effect.sync(() => {
            const sockets = open.get(tokenId)
            sockets?.delete(ended)
            if (sockets?.size === 0) open.delete(tokenId)
            const ofUser = (openByUser.get(user) ?? 1) - 1
            if (ofUser === 0) openByUser.delete(user)
            else openByUser.set(user, ofUser)
          })

        return LiveSockets.of({
          acquire: (tokenId, user) =>
            Effect.map(
              Effect.acquireRelease(
                Effect.suspend(() => {
                  const sockets = open.get(tokenId) ?? new Set()
                  if (sockets.size >= limit) return Effect.fail(new TooManySockets({ limit, holder: "token" }))
                  const ofUser = openByUser.get(user) ?? 0
                  if (ofUser >= userLimit) return Effect.fail(new TooManySockets({ limit: userLimit, holder: "user" }))
                  const ended = Deferred.makeUnsafe<void>()
                  open.set(tokenId, sockets.add(ended))
                  openByUser.set(user, ofUser + 1)
                  return Effect.succeed(ended)
                }),
                (ended) => release(tokenId, user, ended)
              ),
              (ended) => tokenEnded(tokenId, ended)
            ),
          count: (tokenId) => Effect.sync(() => open.get(tokenId)?.size ?? 0),
          end
        })
      })
    )
}
