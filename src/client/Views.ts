import * as Option from "effect/Option"
import type * as Result from "effect/Result"
import type { ChannelError } from "../domain/ChannelError.ts"
import type { ResultKey } from "../domain/Outcome.ts"
import type { Value } from "../domain/Value.ts"
import type { Channel } from "../domain/Channel.ts"
import { type AdapterId, normalizeTags, type ServiceId, type Tag } from "../domain/Identifier.ts"
import type { Service } from "../domain/Service.ts"
import { type ChannelInA, channelInA, type NodeInA } from "../vocabulary/a/index.ts"
import { sortChannels } from "../vocabulary/a/ChannelJson.ts"

/**
 * What the client answers of services and channels: what both vocabularies say, and, as an `Option`,
 * what B says and A does not (a service's adapter and properties, a channel's adapter): `None` in A.
 */

/** A channel: B has no `push` (its setters read `pushMs` 0); A does not say its adapter. */
export interface ChannelView extends ChannelInA {
  readonly adapter: Option.Option<AdapterId>
}

/** A service (a node): A says neither its adapter nor its properties (what the device says of itself: name, model…). */
export interface ServiceView {
  readonly id: ServiceId
  readonly tags: ReadonlyArray<Tag>
  readonly adapter: Option.Option<AdapterId>
  readonly properties: Option.Option<Service["properties"]>
  readonly getters: ReadonlyArray<ChannelView>
  readonly setters: ReadonlyArray<ChannelView>
}

/** Why a channel was not read or written: a `TypeMismatch` without its types (vocabulary A does not send them). */
export type ChannelFailure = Exclude<ChannelError, { readonly _tag: "TypeMismatch" }> | { readonly _tag: "TypeMismatch" }

/** What a read or a write did at one channel: `key` names it, `result` is its value (or nothing) or why not. */
export interface ChannelOutcome<A> {
  readonly key: ResultKey
  readonly result: Result.Result<A, ChannelFailure>
}

/** A read's outcome per getter: its value (`None`: none yet) or why not. */
export type FetchResultsView = ReadonlyArray<ChannelOutcome<Option.Option<Value>>>
/** A write's outcome per setter. */
export type SendResultsView = ReadonlyArray<ChannelOutcome<void>>

/** How the client reads a vocabulary's services (`S`) and channels (`C`) into views. */
export interface Viewing<S, C> {
  readonly service: (service: S) => ServiceView
  readonly channel: (channel: C) => ChannelView
}

/** A service's view, its tags and channels in the model's order whatever order the wire gave. */
const serviceView = <C extends ChannelInA>(
  channel: (c: C) => ChannelView,
  service: { readonly id: ServiceId; readonly tags: ReadonlyArray<Tag>; readonly getters: ReadonlyArray<C>; readonly setters: ReadonlyArray<C> },
  said: Pick<ServiceView, "adapter" | "properties">
): ServiceView => ({
  id: service.id,
  tags: normalizeTags(service.tags),
  ...said,
  getters: sortChannels(service.getters).map(channel),
  setters: sortChannels(service.setters).map(channel)
})

const inA: Viewing<NodeInA, ChannelInA> = {
  channel: (channel) => ({ ...channelInA(channel), adapter: Option.none() }),
  service: (node) => serviceView(inA.channel, node, { adapter: Option.none(), properties: Option.none() })
}

const inB: Viewing<Service, Channel> = {
  channel: (channel) => ({ ...channelInA(channel), adapter: Option.some(channel.adapter) }),
  service: (service) => serviceView(inB.channel, service, { adapter: Option.some(service.adapter), properties: Option.some(service.properties) })
}

export const viewings: { readonly a: Viewing<NodeInA, ChannelInA>; readonly b: Viewing<Service, Channel> } = { a: inA, b: inB }
