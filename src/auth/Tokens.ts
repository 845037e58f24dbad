import { Context, Data, Effect, Layer, Option, Redacted, Result, Schema } from "effect"
import { type Caller, Scope } from "../domain/Scope.ts"
import { GatewayConfig } from "../GatewayConfig.ts"
import type { DatabaseError } from "../store/Database.ts"
import { type ListedToken, type TokenKind, TokenRepository } from "../store/TokenRepository.ts"
import type { UserRow } from "../store/UserRepository.ts"
import { hashToken, looksLikeToken, mintToken } from "./TokenSecret.ts"

export class NoSuchToken extends Data.TaggedError("NoSuchToken")<{ readonly id: number }> {
  override get message(): string {
    return `no token ${this.id}`
  }
}

/** A scope holds at most this many selectors: each request selector is ANDed with each of them. */
export const maxScopeSelectors = 32

export const dayMs = 24 * 60 * 60 * 1000

/** Last use is written at most this often per token: a request is not worth a disk write. */
export const lastUseResolutionMs = 60_000

export interface NewToken {
  readonly user: UserRow
  readonly kind: TokenKind
  readonly label: string
  /** `None`: the whole home with every right. */
  readonly scope: Option.Option<Scope>
  /** Milliseconds since the epoch; `None`: never expires. */
  readonly expiresAt: Option.Option<number>
}

export interface TokensShape {
  /** Mints a token and stores its hash; the token itself is answered once and kept nowhere. */
  readonly create: (token: NewToken) => Effect.Effect<{ readonly id: number; readonly token: Redacted.Redacted<string> }, DatabaseError>
  /** A session token for `user`, expiring after `--session-days`. */
  readonly createSession: (user: UserRow) => Effect.Effect<Redacted.Redacted<string>, DatabaseError>
  /** The caller a presented token stands for: `None` if it is unknown, expired or revoked. */
  readonly authenticate: (token: Redacted.Redacted<string>) => Effect.Effect<Option.Option<Caller>, DatabaseError>
  /** Whether the token a caller was authenticated with is still good (not revoked, not expired, its user still there). */
  readonly stillValid: (id: number) => Effect.Effect<boolean, DatabaseError>
  readonly revoke: (id: number) => Effect.Effect<void, NoSuchToken | DatabaseError>
  /** Ends every session of a user (after a password change). */
  readonly revokeSessionsOf: (user: UserRow) => Effect.Effect<void, DatabaseError>
  readonly list: Effect.Effect<ReadonlyArray<ListedToken>, DatabaseError>
}

const scopeJson = Schema.toCodecJson(Scope)
export const encodeScope = (scope: Scope): string => JSON.stringify(Schema.encodeSync(scopeJson)(scope))
/** A stored scope; `None` if it no longer reads (such a token is refused, never widened). */
export const decodeStoredScope = (text: string): Option.Option<Scope> => {
  try {
    return Result.getSuccess(Schema.decodeUnknownResult(scopeJson)(JSON.parse(text)))
  } catch {
    return Option.none()
  }
}

/** Tokens (wire.md §8): opaque, stored as SHA-256 hashes, with an expiry, revocable, last use recorded. */
export class Tokens extends Context.Service<Tokens, TokensShape>()("app/Tokens") {
  static readonly layer = Layer.effect(
    Tokens,
    Effect.gen(function*() {
      const tokens = yield* TokenRepository
      const { sessionDays } = yield* GatewayConfig
      const lastTouched = new Map<number, number>()

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
            expiresAt: Option.getOrNull(token.expiresAt)
          })
          return { id, token: secret }
        })

      const authenticate = (presented: Redacted.Redacted<string>) =>
        Effect.gen(function*() {
          if (!looksLikeToken(presentedText(presented))) return Option.none<Caller>()
          const found = yield* tokens.byHash(hashToken(presented))
          if (Option.isNone(found)) return Option.none<Caller>()
          const row = found.value
          const now = Date.now()
          if (row.revokedAt !== null || (row.expiresAt !== null && row.expiresAt <= now)) return Option.none<Caller>()
          // A stored scope that no longer reads is refused, never widened to the whole home.
          const scope = row.scope === null ? Option.none<Scope>() : decodeStoredScope(row.scope)
          if (row.scope !== null && Option.isNone(scope)) return Option.none<Caller>()
          if (now - (lastTouched.get(row.id) ?? 0) >= lastUseResolutionMs) {
            lastTouched.set(row.id, now)
            yield* tokens.touch(row.id, now)
          }
          return Option.some<Caller>({ user: { name: row.username }, tokenId: row.id, scope })
        })

      return Tokens.of({
        create,
        createSession: (user) =>
          Effect.map(
            create({ user, kind: "session", label: "", scope: Option.none(), expiresAt: Option.some(Date.now() + sessionDays * dayMs) }),
            (created) => created.token
          ),
        authenticate,
        stillValid: (id) => tokens.validAt(id, Date.now()),
        revoke: (id) =>
          Effect.flatMap(tokens.revoke(id, Date.now()), (found) => found ? Effect.void : Effect.fail(new NoSuchToken({ id }))),
        revokeSessionsOf: (user) => Effect.asVoid(tokens.revokeSessionsOf(user.id, Date.now())),
        list: tokens.list
      })
    })
  )
}

const presentedText = (token: Redacted.Redacted<string>): string => Redacted.value(token)
