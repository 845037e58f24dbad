import * as Option from "effect/Option"
import type { ChannelId } from "../domain/Identifier.ts"
import type { Value } from "../domain/Value.ts"
import type { WatchEvent, WatchRegistration } from "../domain/Watch.ts"
import type { HomeChange } from "./HomeChange.ts"
import type { ChannelRecord } from "./HomeStore.ts"
import type { HomeView } from "./HomeIndex.ts"
import { type RegistrationAnswer, RegistrationAnswers } from "./RegistrationAnswers.ts"
import { Watcher } from "./Watcher.ts"
import { accepts, type Interest, type InterestOf, interestsOf, passes, type RefusesWatch } from "./WatchInterest.ts"
import { WatchQueue } from "./WatchQueue.ts"

/**
 * Every live watch, fed by the registry's changes in one synchronous step per change. A value reaches
 * the watchers of its channel through an index (its cost follows the number of watchers of that channel,
 * not of all of them) as one shared event object, so that encoders can encode it once for all.
 * A `ChannelsChanged` re-checks only the channels it names.
 *
 * A registration's own events (additions, removals, current values) reach the queue together, let in
 * whatever its limit (WatchQueue). The additions and current values are shared by every watcher they go
 * to, like values: a thousand dashboards registering the same home hold and encode them once. A first
 * registration of many channels (BROAD_WATCHER) is worked out once for every watcher that registers the
 * same on the same home (RegistrationAnswers): they take its interests, events and handed values whole.
 *
 * A channel that comes to be watched by a target asking for current values gets the value the home holds,
 * read in the same step (docs/reference.md §7). The home runs ahead of the hub: values it took may still
 * be on their way here; those reported at the home's version of that step or before are not delivered
 * to that watcher, so a value never follows a newer one.
 */
export class WatchHub {
  private readonly watchers = new Set<Watcher>()
  /** The watchers that want values of a channel, but for the broad ones. */
  private readonly byChannel = new Map<ChannelId, Set<Watcher>>()
  /**
   * The watchers whose registration selected many channels (BROAD_WATCHER), asked about every
   * value instead: indexing each of their channels would cost a registration of the whole home tens of
   * thousands of index entries, made and dropped, while most values of the home go to them anyway.
   */
  private readonly broad = new Set<Watcher>()
  /** The addition of a channel, one event per record for every watcher. */
  private readonly additions = new WeakMap<ChannelRecord, WatchEvent>()
  /** A channel's current value as an event, one per value the home took (its `lastValue`) for every watcher. */
  private readonly currentValues = new WeakMap<Option.Option<Value>, WatchEvent>()
  private readonly answers: RegistrationAnswers

  /** `broadFrom`: how many channels make a watcher broad (BROAD_WATCHER; tests lower it to make small homes take that path). */
  constructor(
    private readonly home: HomeView,
    private readonly refuses: RefusesWatch,
    private readonly broadFrom: number = BROAD_WATCHER
  ) {
    this.answers = new RegistrationAnswers(home)
  }

  get size(): number {
    return this.watchers.size
  }

  /** The events waiting in the longest queue of any watcher: counted when asked, over the live watchers. */
  get longestQueue(): number {
    let longest = 0
    for (const watcher of this.watchers) longest = Math.max(longest, watcher.queue.size)
    return longest
  }

  /** A new watcher: the channels already in its set are announced before anything else reaches it. */
  add(registration: WatchRegistration, queue: WatchQueue): Watcher {
    const watcher = new Watcher([], queue)
    this.watchers.add(watcher)
    this.replace(watcher, registration)
    return watcher
  }

  remove(watcher: Watcher): void {
    this.watchers.delete(watcher)
    this.broad.delete(watcher)
    if (!watcher.broad) for (const channel of watcher.interests.keys()) this.unindex(watcher, channel)
    watcher.interests.clear()
  }

  /**
   * Swaps a watcher's registration between two changes: channels in both sets get no removed/added
   * pair, channels only in the old set are removed, channels only in the new one added. The events go
   * in id order (compared as strings, the order of every list the gateway answers: ListOrder.ts): the
   * selection comes in it, and the channels leaving are merged into it.
   */
  replace(watcher: Watcher, registration: WatchRegistration): void {
    watcher.registration = registration
    const fresh = watcher.interests.size === 0
    const kept = fresh ? this.answers.find(registration) : undefined
    if (kept !== undefined) {
      this.adopt(watcher, kept)
      return
    }
    const selected = this.home.selectChannels(registration.map((target) => target.selector))
    const broad = selected.length >= this.broadFrom
    if (fresh && broad) {
      const answer = this.answerOf(registration, selected)
      this.answers.keep(registration, answer)
      this.adopt(watcher, answer)
      return
    }
    this.classify(watcher, broad)
    const interestOf = interestsOf(registration, this.home, this.refuses)
    const burst: Array<WatchEvent> = []
    const leaving = this.leaving(watcher, selected)
    let next = 0
    const recheckLeavingBefore = (bound: ChannelId | undefined) => {
      for (let id = leaving[next]; id !== undefined && (bound === undefined || id < bound); id = leaving[++next]) {
        this.recheck(watcher, id, this.home.channel(id), interestOf, burst)
      }
    }
    for (const record of selected) {
      recheckLeavingBefore(record.id)
      this.recheck(watcher, record.id, record, interestOf, burst)
    }
    recheckLeavingBefore(undefined)
    watcher.queue.pushRegistration(burst, 3 * (selected.length + leaving.length))
  }

  /**
   * What `registration` makes of the home for a watcher that watches nothing: worked out on a watcher of
   * its own, broad (so in no index), whose events are collected instead of queued.
   */
  private answerOf(registration: WatchRegistration, selected: ReadonlyArray<ChannelRecord>): RegistrationAnswer {
    const scratch = new Watcher(registration, new WatchQueue())
    scratch.broad = true
    const interestOf = interestsOf(registration, this.home, this.refuses)
    const events: Array<WatchEvent> = []
    for (const record of selected) this.recheck(scratch, record.id, record, interestOf, events)
    return {
      channels: selected.length,
      interests: scratch.interests.copy(),
      events,
      handed: scratch.handedChannels(),
      handedAt: this.home.version
    }
  }

  /** A watcher that watches nothing takes on a shared answer: its channels, and its events, let in as they are. */
  private adopt(watcher: Watcher, answer: RegistrationAnswer): void {
    this.classify(watcher, true)
    watcher.adopt(answer)
    watcher.queue.pushRegistration(answer.events, 3 * answer.channels, { shared: true })
  }

  /** Moves a watcher between the index by channel and the broad watchers, before its channels are rechecked. */
  private classify(watcher: Watcher, broad: boolean): void {
    if (broad === watcher.broad) return
    watcher.broad = broad
    if (broad) {
      for (const channel of watcher.interests.keys()) this.unindex(watcher, channel)
      this.broad.add(watcher)
    } else {
      // Its channels are indexed as they are rechecked: every one it watches is.
      this.broad.delete(watcher)
    }
  }

  /** The channels a watcher watches that `selected` leaves out, in id order: none on its first registration. */
  private leaving(watcher: Watcher, selected: ReadonlyArray<ChannelRecord>): ReadonlyArray<ChannelId> {
    if (watcher.interests.size === 0) return []
    const staying = new Set<ChannelId>()
    for (const record of selected) staying.add(record.id)
    return [...watcher.interests.keys()].filter((id) => !staying.has(id)).sort()
  }

  apply(change: HomeChange): void {
    if (change._tag === "ValueReported") {
      this.deliverValue(change.channel, change.value, change.version)
      return
    }
    for (const watcher of this.watchers) {
      const interestOf = interestsOf(watcher.registration, this.home, this.refuses)
      for (const id of change.channels) this.recheck(watcher, id, this.home.channel(id), interestOf, undefined)
    }
  }

  private deliverValue(channel: ChannelId, value: Value, version: number): void {
    let event: WatchEvent | undefined
    const indexed = this.byChannel.get(channel)
    if (indexed !== undefined) for (const watcher of indexed) event = offer(watcher, channel, value, version, event)
    for (const watcher of this.broad) event = offer(watcher, channel, value, version, event)
  }

  /**
   * Brings one channel of one watcher up to date with the home (`record`: the channel's, `undefined` when
   * it is not connected), announcing what changed: into `burst` while registering, else to its queue. Its
   * current value goes to a target asking for it on registering, and when the channel comes to be watched by one.
   */
  private recheck(
    watcher: Watcher,
    id: ChannelId,
    record: ChannelRecord | undefined,
    interestOf: InterestOf,
    burst: Array<WatchEvent> | undefined
  ): void {
    const before = watcher.interests.get(id)
    const after = record === undefined ? undefined : interestOf(record)
    if (before === undefined && after === undefined) return
    if (after === undefined) {
      watcher.interests.delete(id)
      watcher.forget(id)
      if (!watcher.broad) this.unindex(watcher, id)
    } else {
      watcher.interests.set(id, after)
      // A broad watcher is asked about every value: not indexed.
      if (!watcher.broad && after.filters.length > 0) this.index(watcher, id)
      else if (!watcher.broad) this.unindex(watcher, id)
    }
    const wasVisible = before?.topology ?? false
    const isVisible = after?.topology ?? false
    if (!wasVisible && isVisible && record !== undefined) emit(watcher, burst, this.additionOf(record))
    if (wasVisible && !isVisible) emit(watcher, burst, { _tag: "ChannelRemoved", channel: id })
    if (after !== undefined && Option.isSome(after.refusal) && (before === undefined || Option.isNone(before.refusal))) {
      emit(watcher, burst, { _tag: "WatchRefused", channel: id, error: { _tag: "DeviceFailure", message: after.refusal.value } })
    }
    // After its addition: a channel's addition comes before its values.
    const handing = burst !== undefined || before === undefined || before.initial.length === 0
    if (record !== undefined && after !== undefined && after.initial.length > 0 && handing) {
      this.handCurrentValue(watcher, record, after, burst)
    }
  }

  /** The value the home holds for `record`, if it has one that the target asking for it lets through. */
  private handCurrentValue(watcher: Watcher, record: ChannelRecord, interest: Interest, burst: Array<WatchEvent> | undefined): void {
    const current = record.lastValue
    if (Option.isNone(current) || !passes(interest.initial, current.value)) return
    let event = this.currentValues.get(current)
    if (event === undefined) {
      event = { _tag: "ValueChanged", channel: record.id, value: current.value }
      this.currentValues.set(current, event)
    }
    emit(watcher, burst, event)
    watcher.handed(record.id, this.home.version)
  }

  private additionOf(record: ChannelRecord): WatchEvent {
    let event = this.additions.get(record)
    if (event === undefined) {
      event = { _tag: "ChannelAdded", channel: record.id }
      this.additions.set(record, event)
    }
    return event
  }

  private index(watcher: Watcher, id: ChannelId): void {
    const set = this.byChannel.get(id)
    if (set === undefined) this.byChannel.set(id, new Set([watcher]))
    else set.add(watcher)
  }

  private unindex(watcher: Watcher, id: ChannelId): void {
    const set = this.byChannel.get(id)
    if (set === undefined) return
    set.delete(watcher)
    if (set.size === 0) this.byChannel.delete(id)
  }
}

/**
 * A value to one watcher, if it wants it: as `event`, the one object every watcher of the value shares,
 * made by the first that does (and answered, for the next).
 */
const offer = (watcher: Watcher, channel: ChannelId, value: Value, version: number, event: WatchEvent | undefined): WatchEvent | undefined => {
  const interest = watcher.interests.get(channel)
  if (interest === undefined || !accepts(interest, value) || watcher.hasNewer(channel, version)) return event
  const shared = event ?? { _tag: "ValueChanged", channel, value }
  watcher.queue.push(shared)
  return shared
}

/** An event of `watcher`: into `burst` while registering, else to its queue. */
const emit = (watcher: Watcher, burst: Array<WatchEvent> | undefined, event: WatchEvent): void => {
  if (burst === undefined) watcher.queue.push(event)
  else burst.push(event)
}

/**
 * A watcher of at least this many channels is broad (WatchHub): the cost of asking it about a value it
 * does not watch, a map lookup, is less than what indexing and unindexing this many channels costs its
 * registration, spread over the values of a home large enough for it to miss many.
 */
export const BROAD_WATCHER = 1_024
