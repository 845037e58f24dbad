import * as Option from "effect/Option"
import { contains } from "../domain/Range.ts"
import type { Value } from "../domain/Value.ts"
import type { ValueFilter, WatchRegistration } from "../domain/Watch.ts"
import type { HomeView } from "./HomeIndex.ts"
import type { ChannelRecord } from "./HomeStore.ts"

/**
 * What one registration wants of one channel it matches (docs/reference.md §7): whether its joining and leaving
 * are announced (some matching target watches topology), which values are delivered (those some
 * matching, accepted filter lets through: one event per value however many targets match), which of
 * those filters belong to targets that asked for current values, and why the device refused some of the
 * filters.
 */
export interface Interest {
  readonly topology: boolean
  readonly filters: ReadonlyArray<ValueFilter>
  /** The filters of `filters` whose targets asked for the channel's current value when it comes to be watched. */
  readonly initial: ReadonlyArray<ValueFilter>
  readonly refusal: Option.Option<string>
}

/** Why the channel's device refuses to be watched with `filter`, if it does. */
export type RefusesWatch = (channel: ChannelRecord, filter: ValueFilter) => Option.Option<string>

/** The interest of one registration in a channel, `undefined` when no target matches it. */
export type InterestOf = (channel: ChannelRecord) => Interest | undefined

/**
 * The interest of `registration` in each channel asked for. Channels that the same targets match, none
 * of them refused, share one interest: a registration of the whole home holds a handful, not one per channel.
 */
export const interestsOf = (registration: WatchRegistration, home: HomeView, refuses: RefusesWatch): InterestOf => {
  // Keyed by which targets matched, for registrations of up to 31 targets (a bit each); larger ones are not shared.
  const shared = new Map<number, Interest>()
  const shareable = registration.length <= 31
  return (channel) => {
    let matches = 0
    let refusal = Option.none<string>()
    for (let i = 0; i < registration.length; i++) {
      const target = registration[i]
      if (target === undefined || !home.channelMatches(target.selector, channel)) continue
      matches |= 1 << i
      if (target.values._tag === "Never" || Option.isSome(refusal)) continue
      refusal = refuses(channel, target.values)
    }
    if (matches === 0) return undefined
    if (Option.isSome(refusal) || !shareable) return interestIn(registration, channel, home, refuses)
    let interest = shared.get(matches)
    if (interest === undefined) {
      interest = interestIn(registration, channel, home, refuses)
      if (interest !== undefined) shared.set(matches, interest)
    }
    return interest
  }
}

/** The interest of `registration` in `channel`, `undefined` when no target matches it. */
const interestIn = (
  registration: WatchRegistration,
  channel: ChannelRecord,
  home: HomeView,
  refuses: RefusesWatch
): Interest | undefined => {
  let matched = false
  let topology = false
  const filters: Array<ValueFilter> = []
  const initial: Array<ValueFilter> = []
  let refusal = Option.none<string>()
  for (const target of registration) {
    if (!home.channelMatches(target.selector, channel)) continue
    matched = true
    topology ||= target.topology
    if (target.values._tag === "Never") continue
    const refused = refuses(channel, target.values)
    if (Option.isSome(refused)) {
      if (Option.isNone(refusal)) refusal = refused
    } else {
      filters.push(target.values)
      if (target.initialValues) initial.push(target.values)
    }
  }
  return matched ? { topology, filters, initial, refusal } : undefined
}

/** Whether `value` passes one of `filters`. A range of another type than the value lets nothing through. */
export const passes = (filters: ReadonlyArray<ValueFilter>, value: Value): boolean =>
  filters.some((filter) => filter._tag === "Always" || (filter._tag === "InRange" && contains(filter.range, value)))

/** Whether a new value is delivered. */
export const accepts = (interest: Interest, value: Value): boolean => passes(interest.filters, value)
