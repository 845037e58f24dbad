import { Option, Result } from "effect"
import type { Channel } from "../../src/domain/Channel.ts"
import { type Constraint, empty, exactly } from "../../src/domain/Constraint.ts"
import type { Tag } from "../../src/domain/Identifier.ts"
import type { Mechanism } from "../../src/domain/Mechanism.ts"
import type { Range } from "../../src/domain/Range.ts"
import type { SendTarget, TagRequest } from "../../src/domain/Request.ts"
import type { TokenScope } from "../../src/domain/Access.ts"
import type { ChannelSelector, ServiceSelector } from "../../src/domain/Selector.ts"
import { forMechanism, selectsNothing } from "../../src/domain/SelectorAlgebra.ts"
import type { Service } from "../../src/domain/Service.ts"
import type { Value } from "../../src/domain/Value.ts"
import type { ValueFilter, WatchEvent, WatchRegistration, WatchTarget } from "../../src/domain/Watch.ts"
import type { ChannelInA, NodeInA, OutcomeInA } from "../../src/vocabulary/a/index.ts"
import { MAX_ROUNDED_DURATION_SECONDS } from "../../src/vocabulary/common/ValueJson.ts"

/**
 * What reading a model value's JSON gives back: the value itself, except for what its wire form cannot
 * carry or reads in canonical form. Each exception is named here, with its reason, and written
 * independently of the codecs, so that the round-trip law `decode(encode(x)) = normal(x)` still catches
 * a read or a write that drops or changes anything else.
 */

// ---- shared by both vocabularies ---------------------------------------------------------------------

/**
 * A tag list is a set: JSON arrays carry order and duplicates, but the gateway reads (and writes) tags
 * sorted by UTF-16 code units, without duplicates.
 */
export const tagSet = (tags: ReadonlyArray<Tag>): ReadonlyArray<Tag> => [...new Set(tags)].sort()

/** Durations are read to the millisecond (docs/reference.md §2); beyond 2^51 ms a double holds no finer digit to round. */
export const value = (v: Value): Value =>
  v._tag === "Duration" && v.seconds < MAX_ROUNDED_DURATION_SECONDS ? { _tag: "Duration", seconds: Math.round(v.seconds * 1000) / 1000 } : v

export const valueOrNone = (v: Option.Option<Value>): Option.Option<Value> => Option.map(v, value)

export const range = (r: Range): Range =>
  r._tag === "BetweenEq" || r._tag === "OutOfStrict" ? { _tag: r._tag, low: value(r.low), high: value(r.high) } : { _tag: r._tag, value: value(r.value) }

const valueFilter = (filter: ValueFilter): ValueFilter => (filter._tag === "InRange" ? { _tag: "InRange", range: range(filter.range) } : filter)

/** Lists that vocabulary A answers are sorted by id (docs/reference.md §5), strings compared with `<`; equal ids keep their order. */
const inIdOrder = <A extends { readonly id: string }>(items: ReadonlyArray<A>): ReadonlyArray<A> =>
  [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))

const inKeyOrder = <A extends { readonly key: string }>(items: ReadonlyArray<A>): ReadonlyArray<A> =>
  [...items].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))

// ---- vocabulary B ------------------------------------------------------------------------------------

/** Which B channel selector: GetterSelector, SetterSelector, or the mechanism-free one of `/channels/tag`. */
type BRole = Mechanism | "either"

/** Whether the selector, read as a selector of `role`, can match a channel. */
const matchesSomethingAs = (role: BRole) => (selector: ChannelSelector): boolean =>
  !selectsNothing(role === "either" ? selector : forMechanism(selector, role))

/**
 * B has no mechanism field: the place a selector stands in says it (a GetterSelector selects getters),
 * so a getter selector reads with its mechanism pinned, the `/channels/tag` one with it open.
 */
export const bChannelSelector = (role: BRole) => (selector: ChannelSelector): ChannelSelector => ({
  ...selector,
  mechanism: role === "either" ? empty : exactly(role),
  tags: tagSet(selector.tags),
  serviceTags: tagSet(selector.serviceTags)
})

/**
 * B has no word for a selector that matches nothing (a Conflict, or the other mechanism): in a list, an
 * OR, it is left out, which keeps what the list matches.
 */
export const bChannelSelectors = (role: BRole) => (selectors: ReadonlyArray<ChannelSelector>): ReadonlyArray<ChannelSelector> =>
  selectors.filter(matchesSomethingAs(role)).map(bChannelSelector(role))

const bServiceMatchesSomething = (selector: ServiceSelector): boolean =>
  selector.id._tag !== "Conflict" && selector.getters.every(matchesSomethingAs("getter")) &&
  selector.setters.every(matchesSomethingAs("setter"))

export const bServiceSelectors = (selectors: ReadonlyArray<ServiceSelector>): ReadonlyArray<ServiceSelector> =>
  selectors.filter(bServiceMatchesSomething).map((selector) => ({
    ...selector,
    tags: tagSet(selector.tags),
    getters: selector.getters.map(bChannelSelector("getter")),
    setters: selector.setters.map(bChannelSelector("setter"))
  }))

export const bTagRequest = <S>(selectors: (all: ReadonlyArray<S>) => ReadonlyArray<S>) => (request: TagRequest<S>): TagRequest<S> => ({
  selectors: selectors(request.selectors),
  tags: tagSet(request.tags)
})

export const bSendBody = (targets: ReadonlyArray<SendTarget>): ReadonlyArray<SendTarget> =>
  targets.map((target) => ({ selectors: bChannelSelectors("setter")(target.selectors), value: value(target.value) }))

/** B has no `push`: a channel read from B accepts values at any rate. */
export const bChannel = (channel: Channel): Channel => ({ ...channel, tags: tagSet(channel.tags), pushMs: 0 })

export const bService = (service: Service): Service => ({
  ...service,
  tags: tagSet(service.tags),
  getters: service.getters.map(bChannel),
  setters: service.setters.map(bChannel)
})

/**
 * A B result map is a JSON object: one entry per key (the gateway's results have one anyway; of
 * several, the last is kept), read in key order.
 */
export const bResults = <T>(map: (success: T) => T) =>
<K extends string, E>(outcomes: ReadonlyArray<{ readonly key: K; readonly result: Result.Result<T, E> }>) => {
  const last = new Map(outcomes.map((outcome) => [outcome.key, outcome] as const))
  return inKeyOrder([...last.values()]).map(({ key, result }) => ({ key, result: Result.map(result, map) }))
}

/** B always watches topology (a target that does not is refused), and watches getters only. */
export const bWatchRegistration = (registration: WatchRegistration): WatchRegistration =>
  registration.filter((target) => matchesSomethingAs("getter")(target.selector)).map((target) => ({
    selector: bChannelSelector("getter")(target.selector),
    values: valueFilter(target.values),
    topology: true,
    initialValues: target.initialValues
  }))

export const watchEvent = <E extends WatchEvent>(event: E): E =>
  event._tag === "ValueChanged" ? { ...event, value: value(event.value) } : event

/** Rights are a set: read without duplicates, in the order first given. */
export const bScope = (scope: TokenScope): TokenScope => ({
  channels: bChannelSelectors("either")(scope.channels),
  rights: [...new Set(scope.rights)]
})

// ---- vocabulary A ------------------------------------------------------------------------------------

/** An A selector says its mechanism by its place, as the model does: only its tags read in canonical form. */
export const aChannelSelector = (selector: ChannelSelector): ChannelSelector => ({ ...selector, tags: tagSet(selector.tags) })

/**
 * Within a NodeSelector, `inputs` are only matched against inputs: a requirement that leaves the
 * mechanism open is written, and read back, as the GetSelector it means.
 */
const within = (mechanism: Mechanism) => (selector: ChannelSelector): ChannelSelector =>
  aChannelSelector({ ...selector, mechanism: pinned(selector.mechanism, mechanism) })

const pinned = (constraint: Constraint<Mechanism>, mechanism: Mechanism): Constraint<Mechanism> =>
  constraint._tag === "Empty" ? exactly(mechanism) : constraint

export const aNodeSelector = (selector: ServiceSelector): ServiceSelector => ({
  ...selector,
  tags: tagSet(selector.tags),
  getters: selector.getters.map(within("getter")),
  setters: selector.setters.map(within("setter"))
})

export const aTagRequest = <S>(selector: (one: S) => S) => (request: TagRequest<S>): TagRequest<S> => ({
  selectors: request.selectors.map(selector),
  tags: tagSet(request.tags)
})

export const aSendBody = (targets: ReadonlyArray<SendTarget>): ReadonlyArray<SendTarget> =>
  targets.map((target) => ({ selectors: target.selectors.map(aChannelSelector), value: value(target.value) }))

/** A's `Get` has no `push`: an input read from A has `pushMs` 0. */
export const aChannel = (channel: ChannelInA): ChannelInA => ({
  ...channel,
  tags: tagSet(channel.tags),
  pushMs: channel.mechanism === "getter" ? 0 : channel.pushMs
})

export const aChannels = (channels: ReadonlyArray<ChannelInA>): ReadonlyArray<ChannelInA> => inIdOrder(channels).map(aChannel)

export const aNode = (node: NodeInA): NodeInA => ({
  id: node.id,
  tags: tagSet(node.tags),
  getters: aChannels(node.getters),
  setters: aChannels(node.setters)
})

export const aNodes = (nodes: ReadonlyArray<NodeInA>): ReadonlyArray<NodeInA> => inIdOrder(nodes).map(aNode)

/** A's results are a list of `[id, result]` pairs, in key order (equal keys keep their order). */
export const aResults = <T>(map: (success: T) => T) => (outcomes: ReadonlyArray<OutcomeInA<T>>): ReadonlyArray<OutcomeInA<T>> =>
  inKeyOrder(outcomes).map(({ key, result }) => ({ key, result: Result.map(result, map) }))

export const aWatchTarget = (target: WatchTarget): WatchTarget => ({ ...target, selector: aChannelSelector(target.selector) })
