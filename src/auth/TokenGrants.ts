import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Semaphore from "effect/Semaphore"
import { type Caller, type Excess, excessOver, type TokenScope } from "../domain/Access.ts"
import type { StoreError } from "../domain/StoreError.ts"
import { TokenCreations } from "./TokenCreations.ts"
import {
  CreatingTooFast,
  defaultCreationWindowMs,
  maxCreationsPerWindow,
  maxLiveApiTokens,
  type TokenQuotaOptions,
  TooManyTokens
} from "./TokenQuota.ts"
import { hashToken } from "./TokenSecret.ts"
import { dayMs, decodeStoredScope, NoSuchToken, Tokens } from "./Tokens.ts"
import { type ListedToken, type TokenPage, TokenStore } from "./TokenStore.ts"
import { NoSuchUser, Users } from "./Users.ts"

/** API tokens last this long unless their creator says otherwise. */
export const defaultApiTokenDays = 90

/** Who manages tokens: the operator (the command line, on the data folder: every token of every user), or a request's token. */
export interface Bearer {
  readonly _tag: "Bearer"
  readonly caller: Caller
}
export type Authority = { readonly _tag: "Operator" } | Bearer
/** Who creates a token: the operator, for the user it names, or a request's token, for its own user. */
export type Issuer = { readonly _tag: "Operator"; readonly user: string } | Bearer

/** Who lists tokens: the operator (every user's, or one user's), or a request's token. */
export type Lister = Authority | Issuer

export const operator: Authority = { _tag: "Operator" }
export const bearer = (caller: Caller): Bearer => ({ _tag: "Bearer", caller })

export interface TokenRequest {
  readonly label: string
  /** `None`: the whole home with every right. */
  readonly scope: Option.Option<TokenScope>
  /** Milliseconds since the epoch, `Some(None)` never; `None`: `defaultApiTokenDays`, and no later than a creating token's expiry. */
  readonly expiresAt: Option.Option<Option.Option<number>>
}

/** A token's own limit that a token it creates would pass: its reach and rights (`Excess`), or its expiry. */
export type Overreach = Excess | { readonly _tag: "Outlives"; readonly until: number }

/**
 * A token asked to create one that reaches, may do or lasts more than itself (docs/auth.md). The words
 * name only the request and the creating token's own rights and expiry, never what lies outside its scope.
 */
export class BeyondReach extends Data.TaggedError("BeyondReach")<{ readonly overreach: Overreach }> {
  // biome-ignore lint/suspicious/useGetterReturn: the switch covers every tag of Overreach, which the compiler checks
  override get message(): string {
    const { overreach } = this
    switch (overreach._tag) {
      case "Unscoped":
        return "this token has a scope: a token it creates needs a scope within it"
      case "Right":
        return `this token does not grant the "${overreach.right}" right, so a token it creates may not have it`
      case "Selector":
        return `scope.channels[${overreach.index}] is not within this token's scope: each selector of a new token's scope ` +
          "must narrow one of this token's (name the same id, service and kind where it names them, and carry at least its tags)"
      case "Outlives":
        return `this token expires at ${new Date(overreach.until).toISOString()}: a token it creates must expire no later`
    }
  }
}

/** An expiry that has passed already. */
export class ExpiryPassed extends Data.TaggedError("ExpiryPassed")<{}> {
  override get message(): string {
    return "the expiry must be later than now"
  }
}

/** A comparison token is asked for with a token that is not a session: only a person signed in has the Migration page. */
export class NotASession extends Data.TaggedError("NotASession")<{}> {
  override get message(): string {
    return "only a session (a sign-in) gets a comparison token"
  }
}

/** How long a comparison token lasts, at most (no longer than the session asking for it). */
export const comparisonTokenDays = 1

/** The label of every comparison token, as the token list shows it. */
export const comparisonTokenLabel = "the Migration page's comparisons"

export interface TokenGrantsShape {
  /**
   * A new API token for the issuer's user, and the secret, given once. A token creates only tokens within
   * its own reach, rights and expiry, and within its user's quota (TokenQuota); the token it creates
   * records it as its creator.
   */
  readonly create: (issuer: Issuer, request: TokenRequest) => Effect.Effect<
    { readonly token: ListedToken; readonly secret: Redacted.Redacted<string> },
    BeyondReach | ExpiryPassed | NoSuchUser | CreatingTooFast | TooManyTokens | StoreError
  >
  /**
   * The comparison token of the caller's user (a session's: `NotASession` otherwise): its reach and rights,
   * for `comparisonTokenDays` and no longer than the session, made by it. It replaces the user's live one,
   * revoked: one per user, whose secret only the page that asked for it holds. Within the user's creation rate.
   */
  readonly comparison: (caller: Caller) => Effect.Effect<
    { readonly token: ListedToken; readonly secret: Redacted.Redacted<string> },
    NotASession | NoSuchUser | CreatingTooFast | StoreError
  >
  /**
   * A page of the tokens the lister manages, by id (never their secrets, which are not kept): the
   * operator's, every user's or the one user's it names. A page shorter than its limit is the last.
   */
  readonly list: (lister: Lister, page: TokenPage) => Effect.Effect<ReadonlyArray<ListedToken>, NoSuchUser | StoreError>
  /**
   * Revokes a token the authority manages, and every token it created, transitively, at once; answers
   * their ids. Any other id, whether or not it exists, is `NoSuchToken`. Revoking twice is no error.
   */
  readonly revoke: (authority: Authority, id: number) => Effect.Effect<ReadonlyArray<number>, NoSuchToken | StoreError>
}

/**
 * Creating, listing and revoking tokens on someone's authority: the command line's and the HTTP
 * routes' one rule book. A request's token manages its own user's tokens, and, if it has a scope, only
 * those whose scope lies within its own (`excessOver`): what it could have created itself. So a scoped
 * token sees nothing of tokens that reach more, and cannot revoke them.
 */
export class TokenGrants extends Context.Service<TokenGrants, TokenGrantsShape>()("app/TokenGrants") {
  static readonly layer = (quota: TokenQuotaOptions = {}) => Layer.effect(
    TokenGrants,
    Effect.gen(function*() {
      const tokens = yield* Tokens
      const store = yield* TokenStore
      const users = yield* Users
      const liveLimit = quota.liveApiTokens ?? maxLiveApiTokens
      const creations = yield* TokenCreations
      const rateLimit = quota.creationsPerWindow ?? maxCreationsPerWindow
      const rateWindowMs = quota.creationWindowMs ?? defaultCreationWindowMs
      // Counting a user's live tokens and adding one is a single step, or concurrent requests would all pass the count.
      const minting = yield* Semaphore.make(1)

      /** Whether a token of `caller` manages `token`: one of its user, within its scope if it has one. */
      const manages = (caller: Caller) => (token: ListedToken): boolean => {
        if (token.username !== caller.user.name) return false
        if (Option.isNone(caller.scope)) return true
        // A token without scope, or whose scope no longer reads, lies within no scope.
        const scope = token.scope === null ? Option.none() : decodeStoredScope(token.scope)
        return Option.isSome(scope) && Option.isNone(excessOver(scope, caller.scope))
      }

      /** Whether a listing shows `token` to `caller`: one it manages whose scope reads (one that does not is refused whenever presented). */
      const shows = (caller: Caller) => (token: ListedToken): boolean =>
        manages(caller)(token) && (token.scope === null || Option.isSome(decodeStoredScope(token.scope)))

      /**
       * A page of what `read` reads that `keep` keeps: the store is read a page at a time until the page
       * is full or it holds no more, so that only the last page is short.
       */
      const filled = (read: (page: TokenPage) => Effect.Effect<ReadonlyArray<ListedToken>, StoreError>, keep: (token: ListedToken) => boolean, page: TokenPage) => {
        const from = (after: number, kept: ReadonlyArray<ListedToken>): Effect.Effect<ReadonlyArray<ListedToken>, StoreError> =>
          Effect.flatMap(read({ after, limit: page.limit }), (rows) => {
            const more = [...kept, ...rows.filter(keep)]
            const last = rows.at(-1)
            return more.length >= page.limit || rows.length < page.limit || last === undefined
              ? Effect.succeed(more.slice(0, page.limit))
              : from(last.id, more)
          })
        return from(page.after, [])
      }

      /** The id of the user named `name`. */
      const userId = (name: string) =>
        Effect.flatMap(users.byName(name), (user) => Option.isNone(user) ? Effect.fail(new NoSuchUser({ username: name })) : Effect.succeed(user.value.id))

      // One user's tokens are read through the store's index by user: in proportion to that user's tokens.
      const list = (lister: Lister, page: TokenPage) => {
        if (lister._tag === "Bearer") {
          const { caller } = lister
          return Effect.flatMap(userId(caller.user.name), (id) => filled((p) => store.listOf(id, p), shows(caller), page))
        }
        return "user" in lister ? Effect.flatMap(userId(lister.user), (id) => store.listOf(id, page)) : store.list(page)
      }

      /** When the new token expires, within what the issuer may grant. */
      const expiryFor = (issuer: Issuer, requested: TokenRequest["expiresAt"], now: number) =>
        Effect.gen(function*() {
          // A token that has just ended (revoked meanwhile) may grant nothing that lasts.
          const until = issuer._tag === "Operator"
            ? Number.POSITIVE_INFINITY
            : Option.getOrElse(yield* store.validUntil(issuer.caller.tokenId, now), () => now)
          const wanted = Option.getOrElse(requested, () => Option.some(Math.min(now + defaultApiTokenDays * dayMs, until)))
          const at = Option.getOrElse(wanted, () => Number.POSITIVE_INFINITY)
          if (at <= now) return yield* new ExpiryPassed()
          if (at > until) return yield* new BeyondReach({ overreach: { _tag: "Outlives", until } })
          return wanted
        })

      const createNow = (issuer: Issuer, request: TokenRequest, now: number) =>
        Effect.gen(function*() {
          if (issuer._tag === "Bearer") {
            const excess = excessOver(request.scope, issuer.caller.scope)
            if (Option.isSome(excess)) return yield* new BeyondReach({ overreach: excess.value })
          }
          const expiresAt = yield* expiryFor(issuer, request.expiresAt, now)
          const name = issuer._tag === "Operator" ? issuer.user : issuer.caller.user.name
          const user = yield* users.byName(name)
          if (Option.isNone(user)) return yield* new NoSuchUser({ username: name })
          const token = { user: user.value, kind: "api" as const, label: request.label, scope: request.scope, expiresAt }
          const created = issuer._tag === "Operator"
            ? yield* tokens.create(token)
            : yield* minting.withPermits(1)(Effect.gen(function*() {
              if ((yield* store.liveApiTokensOf(user.value.id, now)) >= liveLimit) return yield* new TooManyTokens({ limit: liveLimit })
              return yield* tokens.create({ ...token, createdBy: issuer.caller.tokenId })
            }))
          return yield* kept(created)
        })

      /** A token just made, as the store lists it, with its secret. */
      const kept = (created: { readonly id: number; readonly token: Redacted.Redacted<string> }) =>
        Effect.flatMap(store.byHash(hashToken(created.token)), (found) =>
          Option.isNone(found) ? Effect.die(`token ${created.id} was not kept`) : Effect.succeed({ token: found.value, secret: created.token }))

      /** A request's creation, within the rate of its user: its place is given back if it creates nothing. */
      const withinRate = <A, E>(caller: Caller, creating: (now: number) => Effect.Effect<A, E>): Effect.Effect<A, E | CreatingTooFast | StoreError> =>
        Effect.flatMap(creations.hold(caller.user.name, rateLimit, rateWindowMs), (place): Effect.Effect<A, E | CreatingTooFast> => {
          if (Result.isFailure(place)) {
            const retryAfterSeconds = Math.max(1, Math.ceil(place.failure / 1000))
            return Effect.fail(new CreatingTooFast({ limit: rateLimit, windowSeconds: Math.ceil(rateWindowMs / 1000), retryAfterSeconds }))
          }
          // A place the database failed to give back counts only until it leaves the window.
          return Effect.onError(creating(Date.now()), () => Effect.ignore(place.success))
        })

      const create = (issuer: Issuer, request: TokenRequest) =>
        issuer._tag === "Operator" ? createNow(issuer, request, Date.now()) : withinRate(issuer.caller, (now) => createNow(issuer, request, now))

      const comparisonNow = (caller: Caller, now: number) =>
        Effect.gen(function*() {
          const user = yield* users.byName(caller.user.name)
          if (Option.isNone(user)) return yield* new NoSuchUser({ username: caller.user.name })
          // A session that has just ended (revoked meanwhile) grants nothing that lasts.
          const until = Option.getOrElse(yield* store.validUntil(caller.tokenId, now), () => now)
          const expiresAt = Math.min(now + comparisonTokenDays * dayMs, until)
          const created = yield* minting.withPermits(1)(Effect.gen(function*() {
            for (const id of yield* store.liveComparisonsOf(user.value.id, now)) yield* store.revokeWithCreated(id, now)
            return yield* tokens.create({
              user: user.value,
              kind: "comparison",
              label: comparisonTokenLabel,
              scope: caller.scope,
              expiresAt: Option.some(expiresAt),
              createdBy: caller.tokenId
            })
          }))
          return yield* kept(created)
        })

      const comparison = (caller: Caller) =>
        caller.kind === "session" ? withinRate(caller, (now) => comparisonNow(caller, now)) : Effect.fail(new NotASession())

      const revoke = (authority: Authority, id: number) =>
        Effect.gen(function*() {
          if (authority._tag === "Bearer" && !Option.exists(yield* store.byId(id), manages(authority.caller))) return yield* new NoSuchToken({ id })
          const revoked = yield* store.revokeWithCreated(id, Date.now())
          return revoked.length === 0 ? yield* new NoSuchToken({ id }) : revoked
        })

      return TokenGrants.of({ create, comparison, list, revoke })
    })
  )
}
