import type { BuiltinKindName } from "../../src/domain/Kind.ts"

/**
 * A home of any size, built the same way every time without randomness, so that every run measures the
 * same homes: `services` services of 10 channels (6 getters, 4 setters), tagged with rooms, floors and
 * roles, and a few "needle" tags carried by the same number of things on a home of any size (a query for
 * them has an answer that does not grow with the home). The selector index benchmark indexes it; the
 * start-up benchmark writes it as a simulated home file.
 */

export const channelsPerService = 10
/** The rest are setters. */
const gettersPerService = 6
/** Needle tags are carried by this many services, and this many channels, whatever the home's size. */
export const needles = 10
export const channelNeedle = "night light"
export const serviceNeedle = "guest room"

const rooms = ["kitchen", "hall", "living room", "bedroom", "bathroom", "office", "garage", "garden"]
const floors = ["ground floor", "first floor", "basement"]
const roles = ["light", "sensor", "switch", "energy", "security"]
const otherKinds: ReadonlyArray<BuiltinKindName> = ["ActualTemperature", "OpenClosed", "Ready", "LightColor"]

const pick = <A>(pool: ReadonlyArray<A>, n: number): A => {
  const chosen = pool[n % pool.length]
  if (chosen === undefined) throw new Error("pick from an empty pool")
  return chosen
}

/** Every third channel is OnOff: the "big answer" of a kind query. */
const kindOf = (n: number): BuiltinKindName => (n % 3 === 0 ? "OnOff" : pick(otherKinds, n))

/** Zero-padded, so that building in order is building in id order. */
const pad = (i: number): string => String(i).padStart(6, "0")

export interface PlannedChannel {
  readonly id: string
  readonly mechanism: "getter" | "setter"
  readonly kind: BuiltinKindName
  readonly tags: ReadonlyArray<string>
}

export interface PlannedService {
  readonly id: string
  readonly tags: ReadonlyArray<string>
  readonly channels: ReadonlyArray<PlannedChannel>
}

/** The `i`th service of a home of `services` services. */
export const plannedService = (i: number, services: number): PlannedService => {
  const serviceStride = services / needles
  const channelStride = (services * channelsPerService) / needles
  return {
    id: `service:${pad(i)}@bench`,
    tags: [pick(rooms, i), pick(floors, i), ...(i % serviceStride === 0 ? [serviceNeedle] : [])],
    channels: Array.from({ length: channelsPerService }, (_, j) => {
      const n = i * channelsPerService + j
      return {
        id: `channel:${pad(i)}-${j}@bench`,
        mechanism: j < gettersPerService ? "getter" : "setter",
        kind: kindOf(n),
        tags: [pick(roles, n), ...(n % channelStride === 7 ? [channelNeedle] : [])]
      }
    })
  }
}

/** A value of each kind the plan uses, as the home file writes it. */
const initialValue: Readonly<Record<string, unknown>> = {
  OnOff: { OnOff: "On" },
  ActualTemperature: { Temperature: { C: 20 } },
  OpenClosed: { OpenClosed: "Closed" },
  Ready: { Unit: null },
  LightColor: { Color: { h: 40, s: 0.35, v: 0.8 } }
}

/** The home as a simulated home file's content (docs/simulator.md). */
export const homeFileOf = (services: number) => ({
  services: Array.from({ length: services }, (_, i) => {
    const planned = plannedService(i, services)
    const channel = (c: PlannedChannel) => ({ id: c.id, kind: c.kind, tags: c.tags })
    return {
      id: planned.id,
      tags: planned.tags,
      getters: planned.channels.filter((c) => c.mechanism === "getter").map((c) => ({ ...channel(c), value: initialValue[c.kind] ?? null })),
      setters: planned.channels.filter((c) => c.mechanism === "setter").map(channel)
    }
  })
})

/**
 * The same home with each service in its room as the dashboard groups devices (a `room:<Room>` tag
 * beside its plain room tag): the dashboard's large-home benchmark and browser test show it.
 */
export const homeFileWithRoomsOf = (services: number) => {
  const home = homeFileOf(services)
  return {
    services: home.services.map((service, i) => {
      const room = pick(rooms, i)
      return { ...service, tags: [...service.tags, `room:${room.charAt(0).toUpperCase()}${room.slice(1)}`] }
    })
  }
}
