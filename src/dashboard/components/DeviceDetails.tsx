import * as Option from "effect/Option"
import { useState } from "preact/hooks"
import type { Device, DeviceChannel } from "../api/Devices.ts"
import type { LiveHome } from "../state/LiveHome.ts"
import { roomOf } from "../text/Rooms.ts"
import { kindInWords, valueInWords } from "../text/Words.ts"
import { DeviceWords } from "./DeviceWords.tsx"
import { RoomField } from "./RoomField.tsx"
import { TagEditor } from "./TagEditor.tsx"

const ChannelRow = (props: { readonly channel: DeviceChannel; readonly home: LiveHome }) => {
  const { channel, home } = props
  const value = channel.mechanism === "getter" ? home.values.get(channel.id) : undefined
  return (
    <li class="channel">
      <span class="channel-name">{channel.id}</span>
      <span class="muted">{channel.mechanism}, {kindInWords(channel.kind)}</span>
      <TagEditor of={channel.id} tags={channel.tags}
        onAdd={(tag) => home.tag({ channel: channel.id }, tag, "add")} onRemove={(tag) => home.tag({ channel: channel.id }, tag, "remove")} />
      {channel.mechanism === "getter" ? <span class="muted">{value === undefined ? "no value yet" : valueInWords(value)}</span> : null}
    </li>
  )
}

/**
 * What a card keeps out of sight until asked (docs/dashboard.md): the service's id, model and room,
 * its tags, and each channel with its id, mechanism, kind, tags and raw value. Made only when opened, so
 * that a home of a thousand devices does not make a thousand of them.
 */
export const DeviceDetails = (props: { readonly service: Device; readonly home: LiveHome; readonly rooms: ReadonlyArray<string> }) => {
  const { service, home } = props
  const [open, setOpen] = useState(false)
  const model = Option.getOrUndefined(service.properties)?.["model"]
  return (
    <details class="details" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Details</summary>
      {!open ? null : (
        <>
          <p class="about"><DeviceWords text={[service.id, model].filter((part) => part !== undefined).join(" · ")} /></p>
          <RoomField service={service} room={roomOf(service)} rooms={props.rooms} home={home} />
          <TagEditor of={service.id} tags={service.tags}
            onAdd={(tag) => home.tag({ service: service.id }, tag, "add")}
            onRemove={(tag) => home.tag({ service: service.id }, tag, "remove")} />
          <ul class="channels" aria-label={`Channels of ${service.id}`}>
            {[...service.getters, ...service.setters].map((channel) => <ChannelRow key={channel.id} channel={channel} home={home} />)}
          </ul>
        </>
      )}
    </details>
  )
}
