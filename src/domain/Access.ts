/**
 * Who may reach what: a token's rights and scope (`TokenScope`), the caller of a request, and how a scope
 * narrows the selectors of a request (named apart from Effect's resource `Scope`).
 */
import { Data, Option, Schema } from "effect"
import { andChannel, andService, forMechanism, selectsNothing } from "./SelectorAlgebra.ts"
import { type ChannelSelector, ChannelSelector as ChannelSelectorSchema, type ServiceSelector, serviceSelector } from "./Selector.ts"
import type { Tag } from "./Identifier.ts"
import type { User } from "./User.ts"
import type { WatchRegistration } from "./Watch.ts"

/** What a token may do: list and read values, write values, watch, tag, and read the gateway's metrics (`GET /metrics`). */
export const Right = Schema.Literals(["read", "write", "watch", "tag", "metrics"])
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

/** Who makes a request: the user, the token used (for per-token limits), and its scope (`None`: the whole home). */
export interface Caller {
  readonly user: User
  readonly tokenId: number
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
