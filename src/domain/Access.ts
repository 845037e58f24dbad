/**
 * Who may reach what: a token's rights and scope (`TokenScope`), the caller of a request, and how a scope
 * narrows the selectors of a request (named apart from Effect's resource `Scope`).
 */
import * as Data from "effect/Data"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { andChannel, andService, forMechanism, narrows, selectsNothing } from "./SelectorAlgebra.ts"
import { type ChannelSelector, ChannelSelector as ChannelSelectorSchema, type ServiceSelector, serviceSelector } from "./Selector.ts"
import type { Tag } from "./Identifier.ts"
import type { User } from "./User.ts"
import type { WatchRegistration } from "./Watch.ts"

/**
 * What a token may do: list and read values, write values, watch, tag, read the gateway's metrics
 * (`GET /metrics`), and create, list and revoke its user's tokens over HTTP (`/api/v1/tokens`).
 */
export const Right = Schema.Literals(["read", "write", "watch", "tag", "metrics", "tokens"])
export type Right = typeof Right.Type

/**
 * What a scoped token reaches: the channels any of `channels` matches, and only for `rights`.
 * Requests made with it see the home as if it held only those channels; the rest is absent for them.
 */
export const TokenScope = Schema.Struct({
  channels: Schema.Array(ChannelSelectorSchema),
  rights: Schema.Array(Right)
})
export type TokenScope = typeof TokenScope.Type

/** A scope holds at most this many selectors: each request selector is ANDed with each of them. */
export const maxScopeSelectors = 32

/** Why `scope` is too large to keep, if it is. */
export const oversizedScope = (scope: TokenScope): Option.Option<string> =>
  scope.channels.length > maxScopeSelectors
    ? Option.some(`${scope.channels.length} selectors, at most ${maxScopeSelectors}`)
    : Option.none()

/** What a scope allows beyond another: everything (it has none), a right, or the channels of one of its selectors. */
export type Excess =
  | { readonly _tag: "Unscoped" }
  | { readonly _tag: "Right"; readonly right: Right }
  | { readonly _tag: "Selector"; readonly index: number }

/**
 * The first thing a token of scope `inner` could do that one of `outer` could not (`None`: the whole
 * home with every right), or `None` if `inner` lies within `outer`: its rights are among `outer`'s, and
 * each of its selectors narrows one of `outer`'s (`narrows`). Decided on the scopes alone, never on what
 * the home holds now, so it stays true as tags move; it may refuse a scope whose selectors only together
 * lie within `outer`'s.
 */
export const excessOver = (inner: Option.Option<TokenScope>, outer: Option.Option<TokenScope>): Option.Option<Excess> => {
  if (Option.isNone(outer)) return Option.none()
  if (Option.isNone(inner)) return Option.some({ _tag: "Unscoped" })
  const right = inner.value.rights.find((r) => !outer.value.rights.includes(r))
  if (right !== undefined) return Option.some({ _tag: "Right", right })
  const index = inner.value.channels.findIndex((a) => !outer.value.channels.some((b) => narrows(a, b)))
  return index === -1 ? Option.none() : Option.some({ _tag: "Selector", index })
}

/** A token now: usable, past its expiry, or revoked. */
export const TokenStatus = Schema.Literals(["active", "expired", "revoked"])
export type TokenStatus = typeof TokenStatus.Type

export const tokenStatus = (token: { readonly revokedAt: number | null; readonly expiresAt: number | null }, now: number): TokenStatus =>
  token.revokedAt !== null ? "revoked" : token.expiresAt !== null && token.expiresAt <= now ? "expired" : "active"

/**
 * A session token comes from a login; an API token is created on purpose; a comparison token is the one the
 * dashboard's Migration page sends its comparisons with (docs/auth.md), whose calls are not counted as a client's.
 */
export const TokenKind = Schema.Literals(["session", "api", "comparison"])
export type TokenKind = typeof TokenKind.Type

/** Who makes a request: the user, the token used (for per-token limits), its kind, and its scope (`None`: the whole home). */
export interface Caller {
  readonly user: User
  readonly tokenId: number
  readonly kind: TokenKind
  readonly scope: Option.Option<TokenScope>
}

/**
 * The caller's token does not grant the right an operation needs; with `tag`, the `tag` right does not
 * cover adding that tag, which the token's own scope selects by (docs/auth.md).
 */
export class MissingRight extends Data.TaggedError("MissingRight")<{ readonly right: Right; readonly tag?: Tag | undefined }> {
  override get message(): string {
    return this.tag === undefined
      ? `this token does not grant the "${this.right}" right`
      : `this token may not add the tag "${this.tag}": its scope selects by it, and a token's own tag edits never widen its scope`
  }
}

export const grants = (scope: Option.Option<TokenScope>, right: Right): boolean =>
  Option.isNone(scope) || scope.value.rights.includes(right)

/** `selectors ∧ scope`: each request selector ANDed with each scope selector; what cannot match is left out. */
export const scopeChannelSelectors = (
  selectors: ReadonlyArray<ChannelSelector>,
  scope: Option.Option<TokenScope>
): ReadonlyArray<ChannelSelector> =>
  Option.isNone(scope)
    ? selectors
    : selectors.flatMap((r) => scope.value.channels.map((s) => andChannel(r, s))).filter((s) => !selectsNothing(s))

/**
 * The services `selectors` select on the whole home that hold a channel in scope: each request selector
 * ANDed with "has a getter (or a setter) the scope matches". More than a scoped caller selects: a
 * service requirement (`getters`, `setters`) must be met by a channel in scope, which this does not ask
 * (asking it would turn each requirement into an OR over the scope's selectors); the gateway checks it
 * on what this selects.
 */
export const scopeServiceSelectors = (
  selectors: ReadonlyArray<ServiceSelector>,
  scope: Option.Option<TokenScope>
): ReadonlyArray<ServiceSelector> => {
  if (Option.isNone(scope)) return selectors
  const reaches = scope.value.channels.flatMap((s) =>
    [
      serviceSelector({ getters: [forMechanism(s, "getter")] }),
      serviceSelector({ setters: [forMechanism(s, "setter")] })
    ].filter((selector) => [...selector.getters, ...selector.setters].every((c) => !selectsNothing(c)))
  )
  return selectors.flatMap((r) => reaches.map((s) => andService(r, s)))
}

/** A watch registration ANDed with the scope: each target's selector with each scope selector. */
export const scopeWatchRegistration = (registration: WatchRegistration, scope: Option.Option<TokenScope>): WatchRegistration =>
  Option.isNone(scope)
    ? registration
    : registration.flatMap((target) =>
      scopeChannelSelectors([target.selector], scope).map((selector) => ({ ...target, selector }))
    )
