import { useEffect, useMemo, useState } from "preact/hooks"
import type { ChannelId } from "../../client/index.ts"
import type { Device } from "../api/Devices.ts"
import { LiveDeviceCard } from "../components/DeviceCard.tsx"
import { Problem } from "../components/Field.tsx"
import { useLiveHome } from "../state/LiveHome.ts"
import { byRoom, firstOf } from "../text/Rooms.ts"
import type { PageProps } from "./SignedInPage.tsx"

/** Whether `service` carries `tag`, or one of its channels does. */
const carries = (service: Device, tag: string): boolean =>
  [service.tags, ...[...service.getters, ...service.setters].map((channel) => channel.tags)].some((tags) => tags.some((t) => t === tag))

/**
 * How many cards are drawn at first, and added at each task after: a home of a thousand devices shows
 * its first screen at once and draws the rest without a long task (docs/dashboard.md).
 */
const cardsAtOnce = 40

/** The getters of the cards drawn first, in the order the page draws them: their values are read at once. */
const firstCardsGetters = (services: ReadonlyArray<Device>): ReadonlyArray<ChannelId> =>
  firstOf(byRoom(services), cardsAtOnce).flatMap((room) => room.services.flatMap((service) => service.getters.map((getter) => getter.id)))

/**
 * The home as the signed-in user sees it: a card per device, grouped by room (the devices in no room
 * last), with live values and a control for each setter.
 */
export const HomePage = (props: PageProps) => {
  const home = useLiveHome(props.token, props.onExpired, firstCardsGetters)
  const [filter, setFilter] = useState("")
  const shown = useMemo(() => home.services?.filter((service) => filter === "" || carries(service, filter)), [home.services, filter])
  const rooms = useMemo(() => (shown === undefined ? [] : byRoom(shown)), [shown])
  // The names for the room field's suggestions, the same array as long as the rooms are (the cards compare it).
  const names = useMemo(() => rooms.flatMap((room) => (room.name === undefined ? [] : [room.name])), [rooms])
  const [drawn, setDrawn] = useState(cardsAtOnce)
  const cards = shown?.length ?? 0
  useEffect(() => {
    // The first screen's values first: the rest of the home waits for them.
    if (!home.firstValuesRead || drawn >= cards) return
    const next = setTimeout(() => setDrawn((count) => count + cardsAtOnce), 0)
    return () => clearTimeout(next)
  }, [drawn, cards, home.firstValuesRead])
  const drawnRooms = useMemo(() => firstOf(rooms, drawn), [rooms, drawn])
  return (
    <main class="home">
      <h1>Your home</h1>
      <Problem message={home.problem} />
      <p class="field">
        <label for="tag-filter">Show only what carries the tag</label>
        <input id="tag-filter" type="search" value={filter} onInput={(event) => setFilter(event.currentTarget.value.trim())} />
      </p>
      <datalist id="rooms">{names.map((name) => <option key={name} value={name} />)}</datalist>
      {shown === undefined ? <p>Loading…</p> : drawnRooms.map((room, index) => {
        // By place, not by name: an id is one word, and a room's name may have spaces.
        const heading = `room-${index}`
        return (
          <section key={room.name ?? ""} class="room" aria-labelledby={heading}>
            <h2 id={heading}>{room.name ?? "No room"}</h2>
            <ul class="cards" aria-labelledby={heading}>
              {room.services.map((service) => (
                <li key={service.id}><LiveDeviceCard service={service} home={home} rooms={names} /></li>
              ))}
            </ul>
          </section>
        )
      })}
    </main>
  )
}
