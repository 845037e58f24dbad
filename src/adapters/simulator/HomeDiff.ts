import * as Equal from "effect/Equal"
import type { ChannelDescription, ServiceDescription } from "../../gateway/Adapter.ts"
import { type ChannelId, normalizeTags, type ServiceId } from "../../domain/Identifier.ts"
import type { Home, SimulatedGetter, SimulatedService } from "./HomeFile.ts"

/** What the gateway is told of a simulated device: its ids, kinds, tags and properties. */
export const describeService = (service: SimulatedService): ServiceDescription => ({
  id: service.id,
  tags: normalizeTags(service.tags),
  properties: service.properties,
  getters: service.getters.map((g): ChannelDescription => ({ id: g.id, kind: g.kind, tags: normalizeTags(g.tags), pushMs: 0 })),
  // The home file has no field for a rate limit: simulated setters accept values at any rate.
  setters: service.setters.map((s): ChannelDescription => ({ id: s.id, kind: s.kind, tags: normalizeTags(s.tags), pushMs: 0 }))
})

// What a home file says is plain data (Option aside, which has its own equality): compared structurally.
const sameServiceSpec = (a: SimulatedService, b: SimulatedService): boolean => Equal.equals(a, b)
const sameGetterSpec = (a: SimulatedGetter, b: SimulatedGetter): boolean => Equal.equals(a, b)

/** How one home becomes the next: devices that leave, arrive, or differ in anything the file says. */
export interface HomeDiff {
  readonly removed: ReadonlyArray<ServiceId>
  readonly added: ReadonlyArray<SimulatedService>
  readonly changed: ReadonlyArray<{ readonly before: SimulatedService; readonly after: SimulatedService }>
}

export const diffHomes = (before: Home, after: Home): HomeDiff => {
  // From no home (the first one), every device arrives: no map of a large home's ids to find out.
  if (before.services.length === 0) return { removed: [], added: after.services, changed: [] }
  const old = new Map(before.services.map((s) => [s.id, s]))
  const next = new Set(after.services.map((s) => s.id))
  const added: Array<SimulatedService> = []
  const changed: Array<{ before: SimulatedService; after: SimulatedService }> = []
  for (const service of after.services) {
    const previous = old.get(service.id)
    if (previous === undefined) added.push(service)
    else if (!sameServiceSpec(previous, service)) changed.push({ before: previous, after: service })
  }
  return { removed: before.services.filter((s) => !next.has(s.id)).map((s) => s.id), added, changed }
}

/** Whether the gateway must be told again: latency and failure modes are the simulator's own business. */
export const sameDescription = (a: SimulatedService, b: SimulatedService): boolean =>
  JSON.stringify(describeService(a)) === JSON.stringify(describeService(b))

/**
 * Whether a getter goes on as it was: same kind, same initial value, same cycle. Tags and `watch` may
 * differ; anything else restarts the getter from its initial value.
 */
export const sameGetterBehaviour = (a: SimulatedGetter, b: SimulatedGetter): boolean =>
  sameGetterSpec({ ...a, tags: [], watch: undefined }, { ...b, tags: [], watch: undefined })

/**
 * `before`'s description without the channels `after` no longer has (by id and mechanism): connected
 * first, it frees channel ids that move to another device in the same reload.
 */
export const withoutLeavingChannels = (before: SimulatedService, after: SimulatedService): ServiceDescription => {
  const description = describeService(before)
  const getters = new Set<ChannelId>(after.getters.map((g) => g.id))
  const setters = new Set<ChannelId>(after.setters.map((s) => s.id))
  return {
    ...description,
    getters: description.getters.filter((g) => getters.has(g.id)),
    setters: description.setters.filter((s) => setters.has(s.id))
  }
}
