import type { Device } from "../api/Devices.ts"

/**
 * Rooms: a service is in the room `<Name>` when it carries the tag `room:<Name>` (docs/dashboard.md), a
 * tag like any other, so every client and every replica sees it.
 */

const prefix = "room:"

/** The tag that puts a service in `room`. */
export const roomTag = (room: string): string => `${prefix}${room}`

/** The room a service is in: its first `room:` tag's name, if it has one that is not blank. */
export const roomOf = (service: Device): string | undefined =>
  service.tags.find((tag) => tag.startsWith(prefix) && tag.length > prefix.length)?.slice(prefix.length)

/** The room tags a service carries (one, normally: moving it takes them all off). */
export const roomTags = (service: Device): ReadonlyArray<string> => service.tags.filter((tag) => tag.startsWith(prefix))

export interface Room {
  /** Undefined for the devices in no room. */
  readonly name: string | undefined
  readonly services: ReadonlyArray<Device>
}

/** The services by room, rooms in alphabetical order, each in the order given; the devices in no room last. */
export const byRoom = (services: ReadonlyArray<Device>): ReadonlyArray<Room> => {
  const rooms = new Map<string | undefined, Array<Device>>()
  for (const service of services) {
    const room = roomOf(service)
    const inRoom = rooms.get(room)
    if (inRoom === undefined) rooms.set(room, [service])
    else inRoom.push(service)
  }
  const named = [...rooms.keys()].filter((name) => name !== undefined).sort((a, b) => a.localeCompare(b))
  const roomless = rooms.get(undefined)
  return [
    ...named.map((name) => ({ name, services: rooms.get(name) ?? [] })),
    ...(roomless === undefined ? [] : [{ name: undefined, services: roomless }])
  ]
}

/** The first `count` services of `rooms`, in their rooms: the rooms past them left out. */
export const firstOf = (rooms: ReadonlyArray<Room>, count: number): ReadonlyArray<Room> => {
  const first: Array<Room> = []
  let left = count
  for (const room of rooms) {
    if (left <= 0) break
    first.push(room.services.length <= left ? room : { name: room.name, services: room.services.slice(0, left) })
    left -= room.services.length
  }
  return first
}
