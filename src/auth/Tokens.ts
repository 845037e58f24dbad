import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { type Caller, TokenScope } from "../domain/Access.ts"
import type { StoreError } from "../domain/StoreError.ts"
import { hashToken, looksLikeToken, mintToken } from "./TokenSecret.ts"
import { type Generation, type TokenKind, TokenStore } from "./TokenStore.ts"
import type { StoredUser } from "./UserStore.ts"

export class NoSuchToken extends Data.TaggedError("NoSuchToken")<{ readonly id: number }> {
  override get message(): string {
    return `no token ${this.id}`
  }
}

export const dayMs = 24 * 60 * 60 * 1000

/** Last use is written at most this often per token: a request is not worth a disk write. */
export const lastUseResolutionMs = 60_000

/**
 * Tokens recently authenticated, by the token as presented, so that a request is neither a database
 * query nor a SHA-256 (2 % of a small request's CPU in issue 12's profile): raw tokens are then held
 * in this process's memory (docs/security.md). Bounded: presenting many different valid tokens only
 * makes the cache start over.
 */
export const maxCachedTokens = 1_000

/** What a token's row says, as authentication needs it: who, and until when. */
interface KnownToken {
  readonly caller: Caller
  /** Milliseconds since the epoch; `null`: never. */
  readonly expiresAt: number | null
  /** The caller let in, done: made once per token found, not per request. */
  readonly admitted: Effect.Effect<Option.Option<Caller>>
}

export interface NewToken {
  readonly user: StoredUser
  readonly kind: TokenKind
  readonly label: string
  /** `None`: the whole home with every right. */
  readonly scope: Option.Option<TokenScope>
  /** Milliseconds since the epoch; `None`: never expires. */
  readonly expiresAt: Option.Option<number>
  /** The token creating it (over HTTP), which revoking revokes it too; absent: none (the command line, a login). */
  readonly createdBy?: number
}

export interface TokensShape {
  /** Mints a token and stores its hash; the token itself is answered once and kept nowhere. */
  readonly create: (token: NewToken) => Effect.Effect<{ readonly id: number; readonly token: Redacted.Redacted<string> }, StoreError>
  /** A session token for `user`, expiring after `--session-days`. */
  readonly createSession: (user: StoredUser) => Effect.Effect<Redacted.Redacted<string>, StoreError>
  /** The caller a presented token stands for: `None` if it is unknown, expired or revoked. */
  readonly authenticate: (token: Redacted.Redacted<string>) => Effect.Effect<Option.Option<Caller>, StoreError>
  /** Revokes this token alone (TokenGrants.revoke revokes what it created too). */
  readonly revoke: (id: number) => Effect.Effect<void, NoSuchToken | StoreError>
  /**
   * A logout: revokes this token and, if it is a session, the Migration page's comparison token it made
   * (the page's own, whose tab forgets it at the sign-out), and answers their ids. A session's end does
   * not reach the API tokens it created (docs/auth.md). The comparison token goes first: a failure
   * halfway leaves the session working, for the page to sign out again.
   */
  readonly signOut: (id: number) => Effect.Effect<ReadonlyArray<number>, NoSuchToken | StoreError>
  /** Ends every session of a user (after a password change). */
  readonly revokeSessionsOf: (user: StoredUser) => Effect.Effect<void, StoreError>
}

const scopeJson = Schema.toCodecJson(TokenScope)
export const encodeScope = (scope: TokenScope): string => JSON.stringify(Schema.encodeSync(scopeJson)(scope))
/** A stored scope; `None` if it no longer reads (such a token is refused, never widened). */
export const decodeStoredScope = (text: string): Option.Option<TokenScope> => {
  try {
    return Result.getSuccess(Schema.decodeUnknownResult(scopeJson)(JSON.parse(text)))
  } catch {
    return Option.none()
  }
}

export interface TokensOptions {
  /** Days a session token lasts (`--session-days`). */
  readonly sessionDays: number
}

/** Tokens (docs/reference.md §8): opaque, stored as SHA-256 hashes, with an expiry, revocable, last use recorded. */
export class Tokens extends Context.Service<Tokens, TokensShape>()("app/Tokens") {
  static readonly layer = ({ sessionDays }: TokensOptions) => Layer.effect(
    Tokens,
    Effect.gen(function*() {
      const tokens = yield* TokenStore
      const lastTouched = new Map<number, number>()
      // By the token as presented (see maxCachedTokens). Good while the store is in the generation it was
      // filled in: a revocation, a removed user or an expiry changed from the CLI (another process)
      // replaces the generation and empties the cache.
      const known = new Map<string, KnownToken>()
      let knownIn: Generation | undefined

      const create = (token: NewToken) =>
        Effect.gen(function*() {
          const secret = mintToken()
          const id = yield* tokens.insert({
            tokenHash: hashToken(secret),
            userId: token.user.id,
            kind: token.kind,
            label: token.label,
            scope: Option.match(token.scope, { onNone: () => null, onSome: encodeScope }),
            createdAt: Date.now(),
            expiresAt: Option.getOrNull(token.expiresAt),
            createdBy: token.createdBy ?? null
          })
          return { id, token: secret }
        })

      /** What the store says of a token, `None` if it is unknown, revoked or unreadable. */
      const lookUp = (tokenHash: string) =>
        Effect.map(tokens.byHash(tokenHash), (found): Option.Option<KnownToken> => {
          if (Option.isNone(found) || found.value.revokedAt !== null) return Option.none()
          const row = found.value
          // A stored scope that no longer reads is refused, never widened to the whole home.
          const scope = row.scope === null ? Option.none<TokenScope>() : decodeStoredScope(row.scope)
          if (row.scope !== null && Option.isNone(scope)) return Option.none()
          const caller: Caller = { user: { name: row.username }, tokenId: row.id, kind: row.kind, scope }
          return Option.some({ caller, expiresAt: row.expiresAt, admitted: Effect.succeed(Option.some(caller)) })
        })

      /** The token from the store, cached if nothing was written meanwhile (the lookup may have waited for a transaction). */
      const lookUpAndCache = (presented: Redacted.Redacted<string>, generation: Generation) =>
        Effect.flatMap(lookUp(hashToken(presented)), (found) =>
          Effect.sync(() => {
            if (Option.isSome(found) && tokens.generation() === generation) {
              if (known.size >= maxCachedTokens) known.clear()
              known.set(presentedText(presented), found.value)
            }
            return found
          }))

      /**
       * Whether the token is still good now, its last use recorded (at most once a minute). The record
       * is a note, not a condition: a database that cannot be written (read-only, full) still admits the
       * token, and /health says what is wrong with it.
       */
      const admit = ({ caller, expiresAt, admitted }: KnownToken): Effect.Effect<Option.Option<Caller>> => {
        const now = Date.now()
        if (expiresAt !== null && expiresAt <= now) return noCaller
        if (now - (lastTouched.get(caller.tokenId) ?? 0) < lastUseResolutionMs) return admitted
        lastTouched.set(caller.tokenId, now)
        return Effect.andThen(Effect.ignore(tokens.touch(caller.tokenId, now)), admitted)
      }

      // On every request: a cached token is answered done, without a query or a fiber.
      const authenticate = (presented: Redacted.Redacted<string>) => {
        const text = presentedText(presented)
        if (!looksLikeToken(text)) return noCaller
        const generation = tokens.generation()
        if (generation !== knownIn) {
          known.clear()
          knownIn = generation
        }
        const cached = known.get(text)
        if (cached !== undefined) return admit(cached)
        return Effect.flatMap(lookUpAndCache(presented, generation), (found) => Option.isNone(found) ? noCaller : admit(found.value))
      }

      const signOut = (id: number) =>
        Effect.gen(function*() {
          const token = yield* tokens.byId(id)
          if (Option.isNone(token)) return yield* new NoSuchToken({ id })
          const now = Date.now()
          const ended: Array<number> = []
          if (token.value.kind === "session") {
            for (const comparison of yield* tokens.liveComparisonsOf(token.value.userId, now)) {
              const made = yield* tokens.byId(comparison)
              if (Option.isSome(made) && made.value.createdBy === id && (yield* tokens.revoke(comparison, now))) ended.push(comparison)
            }
          }
          yield* tokens.revoke(id, now)
          return [id, ...ended]
        })

      return Tokens.of({
        create,
        createSession: (user) =>
          Effect.map(
            create({ user, kind: "session", label: "", scope: Option.none(), expiresAt: Option.some(Date.now() + sessionDays * dayMs) }),
            (created) => created.token
          ),
        authenticate,
        revoke: (id) =>
          Effect.flatMap(tokens.revoke(id, Date.now()), (found) => found ? Effect.void : Effect.fail(new NoSuchToken({ id }))),
        signOut,
        revokeSessionsOf: (user) => Effect.asVoid(tokens.revokeSessionsOf(user.id, Date.now()))
      })
    })
  )
}

const presentedText = (token: Redacted.Redacted<string>): string => Redacted.value(token)

const noCaller = Effect.succeed(Option.none<Caller>())
