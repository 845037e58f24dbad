/**
 * The `/get` requests seen on the broker whose answer has not come yet: this gateway's own, and those
 * of the other replicas following the same bridge. Zigbee2MQTT answers a `/get` with the device's state
 * on its state topic, which every replica hears; so a fetch that needs what a recent `/get` asks waits
 * for that answer instead of asking again, and replicas started together do not each ask every device.
 */
export interface AskedStates {
  /** A `/get` of `properties` of the device `name`, seen at `at` (ms). */
  readonly seen: (name: string, properties: ReadonlyArray<string>, at: number) => void
  /** `properties` of `name` are no longer awaited: a state holding them arrived, or the `/get` could not be sent. */
  readonly settled: (name: string, properties: ReadonlyArray<string>) => void
  /** Whether every one of `properties` was asked of `name` less than `windowMs` before `now`, and not answered since. */
  readonly awaited: (name: string, properties: ReadonlyArray<string>, now: number) => boolean
}

/**
 * How long a `/get` is taken to be on its way to an answer. A mains-powered device answers well within
 * it; a sleeping one answers no `/get` at all, and a fetch after the window asks again.
 */
const askedWindowMs = 2_000

export const makeAskedStates = (windowMs: number = askedWindowMs): AskedStates => {
  /** By device, when each property was last asked. */
  const asks = new Map<string, Map<string, number>>()
  return {
    seen: (name, properties, at) => {
      const device = asks.get(name) ?? new Map<string, number>()
      asks.set(name, device)
      for (const property of properties) device.set(property, at)
    },
    settled: (name, properties) => {
      const device = asks.get(name)
      if (device === undefined) return
      for (const property of properties) device.delete(property)
      if (device.size === 0) asks.delete(name)
    },
    awaited: (name, properties, now) => {
      const device = asks.get(name)
      return device !== undefined && properties.length > 0 && properties.every((property) => now - (device.get(property) ?? -Infinity) < windowMs)
    }
  }
}
