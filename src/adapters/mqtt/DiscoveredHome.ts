import * as Option from "effect/Option"
import type { AvailabilityMode, AvailabilityTopic, DiscoveredDevice } from "./DiscoveryConfig.ts"
import type { DiscoveryPoint } from "./DiscoveryPoint.ts"
import type { Extract } from "./DiscoveryTemplate.ts"

/** One discovered entity: a `config` message's component, read. */
export interface Entity {
  /** The service local id of its device (its first identifier). */
  readonly device: string
  readonly described: DiscoveredDevice
  readonly points: ReadonlyArray<DiscoveryPoint>
  readonly availability: ReadonlyArray<AvailabilityTopic & { readonly extract: Extract }>
  readonly mode: AvailabilityMode
}

/** What putting an entity changed: the topics now read and those no longer read by any entity, and the devices it touched. */
export interface EntityChange {
  readonly follow: ReadonlyArray<string>
  readonly release: ReadonlyArray<string>
  readonly devices: ReadonlyArray<string>
}

/** Keys by topic, each set in the order the keys came. */
class TopicIndex {
  private readonly keys = new Map<string, Set<string>>()
  add(topic: string, key: string): void {
    const set = this.keys.get(topic)
    if (set === undefined) this.keys.set(topic, new Set([key]))
    else set.add(key)
  }
  delete(topic: string, key: string): void {
    const set = this.keys.get(topic)
    if (set?.delete(key) === true && set.size === 0) this.keys.delete(topic)
  }
  get(topic: string): ReadonlySet<string> {
    return this.keys.get(topic) ?? new Set()
  }
}

const stateTopicsOf = (entity: Entity): ReadonlySet<string> =>
  new Set(entity.points.flatMap((point) => (Option.isSome(point.reading) ? [point.reading.value.topic] : [])))
const availabilityTopicsOf = (entity: Entity): ReadonlySet<string> => new Set(entity.availability.map(({ topic }) => topic))

/**
 * The discovered entities, indexed so that a message costs what it touches: by device, by the topics
 * their states and availability are read from, and each topic's count of entities reading it (so
 * that it is subscribed to while one does, and let go when none does).
 */
export const makeDiscoveredHome = () => {
  /** By `<component>/<node_id>/<object_id>`. */
  const entities = new Map<string, Entity>()
  const byDevice = new Map<string, Set<string>>()
  const stateReaders = new TopicIndex()
  const availabilityReaders = new TopicIndex()
  const readersCount = new Map<string, number>()

  const topicsOf = (entity: Entity) => new Set([...stateTopicsOf(entity), ...availabilityTopicsOf(entity)])

  /** Puts the entity of `key` (`None`: takes it out), in place of the one it had. */
  const put = (key: string, next: Option.Option<Entity>): EntityChange => {
    const previous = entities.get(key)
    const follow: Array<string> = []
    const release: Array<string> = []
    if (previous !== undefined) {
      for (const topic of stateTopicsOf(previous)) stateReaders.delete(topic, key)
      for (const topic of availabilityTopicsOf(previous)) availabilityReaders.delete(topic, key)
      // An entity that stays with its device keeps its place among the device's entities.
      if (Option.isNone(next) || next.value.device !== previous.device) {
        const keys = byDevice.get(previous.device)
        if (keys?.delete(key) === true && keys.size === 0) byDevice.delete(previous.device)
      }
    }
    if (Option.isSome(next)) {
      const entity = next.value
      entities.set(key, entity)
      const keys = byDevice.get(entity.device)
      if (keys === undefined) byDevice.set(entity.device, new Set([key]))
      else keys.add(key)
      for (const topic of stateTopicsOf(entity)) stateReaders.add(topic, key)
      for (const topic of availabilityTopicsOf(entity)) availabilityReaders.add(topic, key)
      // Counted up before the previous entity's topics are counted down: a topic both read stays followed.
      for (const topic of topicsOf(entity)) {
        const count = readersCount.get(topic) ?? 0
        readersCount.set(topic, count + 1)
        if (count === 0) follow.push(topic)
      }
    } else {
      entities.delete(key)
    }
    if (previous !== undefined) {
      for (const topic of topicsOf(previous)) {
        const count = (readersCount.get(topic) ?? 1) - 1
        if (count > 0) readersCount.set(topic, count)
        else (readersCount.delete(topic), release.push(topic))
      }
    }
    const devices = new Set([...(previous === undefined ? [] : [previous.device]), ...Option.toArray(Option.map(next, (e) => e.device))])
    return { follow, release, devices: [...devices] }
  }

  const entitiesIn = (keys: ReadonlySet<string>): ReadonlyArray<Entity> => [...keys].flatMap((key) => entities.get(key) ?? [])

  return {
    put,
    /** A device's entities, in the order they came. */
    entitiesOf: (device: string): ReadonlyArray<Entity> => entitiesIn(byDevice.get(device) ?? new Set()),
    /** The entities whose states are read from `topic`. */
    readingState: (topic: string): ReadonlyArray<Entity> => entitiesIn(stateReaders.get(topic)),
    /** The devices of the entities whose availability is read from `topic`. */
    availableOn: (topic: string): ReadonlySet<string> => new Set(entitiesIn(availabilityReaders.get(topic)).map((entity) => entity.device))
  }
}
