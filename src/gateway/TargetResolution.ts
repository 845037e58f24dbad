import type { ChannelError } from "../domain/ChannelError.ts"
import type { Mechanism } from "../domain/Mechanism.ts"
import type { ResultKey } from "../domain/Outcome.ts"
import type { ChannelSelector } from "../domain/Selector.ts"
import { forMechanism, selectsNothing } from "../domain/SelectorAlgebra.ts"
import type { HomeView } from "./HomeIndex.ts"
import type { ChannelRecord } from "./HomeStore.ts"

/** The channels a read or write reaches, and the per-channel errors for what its selectors named but is not there. */
export interface Resolved {
  readonly channels: ReadonlyArray<ChannelRecord>
  readonly missing: ReadonlyMap<ResultKey, ChannelError>
}

/**
 * Resolves selectors for a read (getters) or a write (setters), per docs/reference.md §6.4: a selector whose `id`
 * names no channel of that mechanism answers NoSuchGetter / NoSuchSetter for that id; one whose
 * `service` names no connected service answers NoSuchService for that service. A selector that matches
 * nothing by itself (a Conflict, or the other mechanism) names nothing either: it adds no error, as it
 * adds no channel, so that leaving it out of a list (as vocabulary B must) changes nothing.
 */
export const resolveTargets = (
  index: HomeView,
  mechanism: Mechanism,
  selectors: ReadonlyArray<ChannelSelector>
): Resolved => {
  let missing: Map<ResultKey, ChannelError> | undefined
  const scoped = selectors.map((selector) => forMechanism(selector, mechanism))
  for (const selector of scoped) {
    if (selectsNothing(selector)) continue
    if (selector.id._tag === "Exactly" && index.channel(selector.id.value)?.mechanism !== mechanism) {
      const id = selector.id.value
      missing ??= new Map()
      missing.set(id, mechanism === "getter" ? { _tag: "NoSuchGetter", id } : { _tag: "NoSuchSetter", id })
    }
    if (selector.service._tag === "Exactly" && index.service(selector.service.value) === undefined) {
      missing ??= new Map()
      missing.set(selector.service.value, { _tag: "NoSuchService", id: selector.service.value })
    }
  }
  return { channels: selected(index, scoped), missing: missing ?? noneMissing }
}

const noneMissing: ReadonlyMap<ResultKey, ChannelError> = new Map()

/**
 * The channels `selectors` select: one selector of one id (most reads and writes) is that channel if it
 * matches, without the index's query and its sets.
 */
const selected = (index: HomeView, selectors: ReadonlyArray<ChannelSelector>): ReadonlyArray<ChannelRecord> => {
  const [only] = selectors
  if (selectors.length !== 1 || only === undefined || only.id._tag !== "Exactly") return index.selectChannels(selectors)
  const record = index.channel(only.id.value)
  return record !== undefined && index.channelMatches(only, record) ? [record] : []
}
