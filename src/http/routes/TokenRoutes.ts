import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import { defaultTokenPage, tokens as tokenEndpoints, type TokenView } from "../../api/Tokens.ts"
import { CurrentCaller } from "../../auth/CurrentCaller.ts"
import { LiveSockets } from "../../auth/LiveSockets.ts"
import { bearer, TokenGrants } from "../../auth/TokenGrants.ts"
import { decodeStoredScope } from "../../auth/Tokens.ts"
import type { ListedToken } from "../../auth/TokenStore.ts"
import { type Caller, type TokenScope, tokenStatus } from "../../domain/Access.ts"
import * as B from "../../vocabulary/b/index.ts"
import { refusedToken } from "../routing/Authentication.ts"
import { bindGroup, type Request } from "../routing/Handlers.ts"
import { BadRequest, Forbidden, TooManyRequests } from "../routing/HttpError.ts"

/** `/api/v1/tokens` (docs/reference.md §8): the caller's tokens, managed on its token's authority (TokenGrants). */

/**
 * A token as the API shows it. One whose stored scope no longer reads, or is none vocabulary B writes, is
 * left out: it is refused whenever presented (the command line still lists it).
 */
const viewOf = (caller: Caller, now: number) => (token: ListedToken): ReadonlyArray<TokenView> => {
  // `Some(None)`: no scope; `None`: a scope that does not read.
  const scope = token.scope === null ? Option.some(Option.none<TokenScope>()) : Option.map(decodeStoredScope(token.scope), Option.some)
  if (Option.isNone(scope) || Option.exists(scope.value, (s) => Result.isFailure(B.ScopeJson.write(s)))) return []
  return [{
    id: token.id,
    kind: token.kind,
    label: token.label,
    status: tokenStatus(token, now),
    scope: scope.value,
    createdAt: token.createdAt,
    expiresAt: token.expiresAt,
    lastUsedAt: token.lastUsedAt,
    createdBy: token.createdBy,
    current: token.id === caller.tokenId
  }]
}

const list = ({ query }: Request<typeof tokenEndpoints.list_tokens>) =>
  Effect.gen(function*() {
    const caller = yield* CurrentCaller
    const page = { after: query.after ?? 0, limit: query.limit ?? defaultTokenPage }
    const listed = yield* TokenGrants.use((grants) => grants.list(bearer(caller), page)).pipe(
      Effect.catchTags({
        // The caller's user was removed meanwhile, and its tokens with it.
        NoSuchUser: () => Effect.fail(refusedToken()),
        StoreError: Effect.die
      })
    )
    return listed.flatMap(viewOf(caller, Date.now()))
  })

/** A token just made, as its answer shows it: listed, and its secret. */
const shown = (caller: Caller, created: { readonly token: ListedToken; readonly secret: Redacted.Redacted<string> }) => {
  const [token] = viewOf(caller, Date.now())(created.token)
  return token === undefined ? Effect.die("a created token's scope does not read") : Effect.succeed({ token, secret: Redacted.value(created.secret) })
}

const create = ({ body }: Request<typeof tokenEndpoints.create_token>) =>
  Effect.gen(function*() {
    const caller = yield* CurrentCaller
    const created = yield* TokenGrants.use((grants) => grants.create(bearer(caller), body)).pipe(
      Effect.catchTags({
        BeyondReach: (e) => Effect.fail(new Forbidden({ message: e.message })),
        ExpiryPassed: (e) => Effect.fail(new BadRequest({ message: `body.expires_at: ${e.message}` })),
        CreatingTooFast: (e) => Effect.fail(new TooManyRequests({ message: e.message, retryAfterSeconds: e.retryAfterSeconds })),
        // Waiting does not help here: no Retry-After.
        TooManyTokens: (e) => Effect.fail(new TooManyRequests({ message: e.message })),
        // The caller's user was removed meanwhile, and its tokens with it.
        NoSuchUser: () => Effect.fail(refusedToken()),
        StoreError: Effect.die
      })
    )
    return yield* shown(caller, created)
  })

/** The Migration page's comparison token: one per user, for a session (TokenGrants.comparison). */
const comparison = () =>
  Effect.gen(function*() {
    const caller = yield* CurrentCaller
    const created = yield* TokenGrants.use((grants) => grants.comparison(caller)).pipe(
      Effect.catchTags({
        NotASession: (e) => Effect.fail(new Forbidden({ message: e.message })),
        CreatingTooFast: (e) => Effect.fail(new TooManyRequests({ message: e.message, retryAfterSeconds: e.retryAfterSeconds })),
        NoSuchUser: () => Effect.fail(refusedToken()),
        StoreError: Effect.die
      })
    )
    return yield* shown(caller, created)
  })

/**
 * Revokes the token and those it created, then ends their watch sockets at once. An id this token does
 * not manage is a 400 whether or not the token exists, so that nobody learns which ids other users' tokens have.
 */
const revoke = ({ body: id }: Request<typeof tokenEndpoints.revoke_token>) =>
  Effect.gen(function*() {
    const caller = yield* CurrentCaller
    const revoked = yield* TokenGrants.use((grants) => grants.revoke(bearer(caller), id)).pipe(
      Effect.catchTags({
        NoSuchToken: () => Effect.fail(new BadRequest({ message: `body.id: no token ${id} among those this token manages` })),
        StoreError: Effect.die
      })
    )
    yield* LiveSockets.use((sockets) => Effect.forEach(revoked, sockets.end, { discard: true }))
  })

export const tokenRoutes = bindGroup(tokenEndpoints, { list_tokens: list, create_token: create, create_comparison_token: comparison, revoke_token: revoke })
