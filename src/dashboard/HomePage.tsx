import * as Option from "effect/Option"
import { useState } from "preact/hooks"
import type { ChannelView, ServiceView, Value } from "../client/index.ts"
import { ColorPicker } from "./ColorPicker.tsx"
import { Problem } from "./Field.tsx"
import { type LiveHome, useLiveHome } from "./LiveHome.ts"
import { SetpointEntry } from "./SetpointEntry.tsx"
import { StateSwitch } from "./StateSwitch.tsx"
import { TagEditor } from "./TagEditor.tsx"
import { kindInWords, valueInWords } from "./Words.ts"

const builtinName = (channel: ChannelView): string | undefined => (channel.kind._tag === "Builtin" ? channel.kind.name : undefined)

/**
 * What a service reports for a setter: the value of its one getter of the same kind, if it has exactly
 * one (the API does not say which getter a setter drives).
 */
const reported = (service: ServiceView, setter: ChannelView, values: LiveHome["values"]): Value | undefined => {
  const getters = service.getters.filter((getter) => builtinName(getter) !== undefined && builtinName(getter) === builtinName(setter))
  return getters.length === 1 && getters[0] !== undefined ? values.get(getters[0].id) : undefined
}

/** The control of a setter, by its kind; none yet for the other kinds. */
const Control = (props: { readonly channel: ChannelView; readonly service: ServiceView; readonly home: LiveHome; readonly name: string }) => {
  const { channel, home, name } = props
  const now = reported(props.service, channel, home.values)
  switch (builtinName(channel)) {
    case "OnOff":
      return (
        <StateSwitch labelledBy={name} states={["Off", "On"]} checked={now?._tag === "OnOff" ? now.state === "On" : undefined}
          onSwitch={(on) => home.send(channel.id, { _tag: "OnOff", state: on ? "On" : "Off" })} />
      )
    case "DoorLocked":
      return (
        <StateSwitch labelledBy={name} states={["Unlocked", "Locked"]}
          checked={now?._tag === "DoorLocked" ? now.state === "Locked" : undefined}
          onSwitch={(locked) => home.send(channel.id, { _tag: "DoorLocked", state: locked ? "Locked" : "Unlocked" })} />
      )
    case "Thermostat": {
      const unit = now?._tag === "Temperature" ? now.unit : "C"
      return (
        <SetpointEntry id={`setpoint-${channel.id}`} labelledBy={name} unit={unit}
          reported={now?._tag === "Temperature" ? now.degrees : undefined}
          onSet={(degrees) => home.send(channel.id, { _tag: "Temperature", unit, degrees })} />
      )
    }
    case "LightColor":
      return (
        <ColorPicker id={`color-${channel.id}`} labelledBy={name} reported={now?._tag === "Color" ? now : undefined}
          onPick={(color) => home.send(channel.id, color)} />
      )
    default:
      return <span class="muted">no control here yet</span>
  }
}

/** Whether `service` carries `tag`, or one of its channels does. */
const carries = (service: ServiceView, tag: string): boolean =>
  [service.tags, ...[...service.getters, ...service.setters].map((channel) => channel.tags)].some((tags) => tags.some((t) => t === tag))

/**
 * A service's heading: the name its device gives itself (vocabulary B's `properties.name`), its id
 * beneath with its model; its id alone when it has no name.
 */
const ServiceHeading = (props: { readonly service: ServiceView }) => {
  const { service } = props
  const properties = Option.getOrUndefined(service.properties)
  // A blank name would leave the heading empty.
  const name = properties?.["name"]?.trim() || undefined
  const about = [name === undefined ? undefined : service.id, properties?.["model"]].filter((part) => part !== undefined)
  return (
    <>
      <h2 id={`service-${service.id}`}>{name ?? service.id}</h2>
      {about.length === 0 ? null : <p class="about">{about.join(" · ")}</p>}
    </>
  )
}

const Channel = (props: { readonly channel: ChannelView; readonly service: ServiceView; readonly home: LiveHome }) => {
  const { channel, home } = props
  const name = `name-${channel.id}`
  const value = home.values.get(channel.id)
  return (
    <li class="channel">
      <span id={name} class="channel-name">{channel.id}</span>
      <span class="muted">{kindInWords(channel.kind)}</span>
      <TagEditor of={channel.id} tags={channel.tags}
        onAdd={(tag) => home.tag({ channel: channel.id }, tag, "add")} onRemove={(tag) => home.tag({ channel: channel.id }, tag, "remove")} />
      {channel.mechanism === "getter"
        ? <span id={`value-${channel.id}`} class="value">{value === undefined ? "no value yet" : valueInWords(value)}</span>
        : <Control channel={channel} service={props.service} home={home} name={name} />}
    </li>
  )
}

/** The home as the signed-in user sees it: its services and their channels, with live values and switches. */
export const HomePage = (props: { readonly token: string; readonly onExpired: () => void }) => {
  const home = useLiveHome(props.token, props.onExpired)
  const [filter, setFilter] = useState("")
  const shown = home.services?.filter((service) => filter === "" || carries(service, filter))
  return (
    <>
      <main>
        <h1>Your home</h1>
        <Problem message={home.problem} />
        <p class="field">
          <label for="tag-filter">Show only what carries the tag</label>
          <input id="tag-filter" type="search" value={filter} onInput={(event) => setFilter(event.currentTarget.value.trim())} />
        </p>
        {shown === undefined ? <p>Loading…</p> : (
          <ul class="services" aria-label="Services">
            {shown.map((service) => (
              <li key={service.id}>
                <ServiceHeading service={service} />
                <TagEditor of={service.id} tags={service.tags}
                  onAdd={(tag) => home.tag({ service: service.id }, tag, "add")}
                  onRemove={(tag) => home.tag({ service: service.id }, tag, "remove")} />
                <ul class="channels" aria-label={`Channels of ${service.id}`}>
                  {[...service.getters, ...service.setters].map((channel) => (
                    <Channel key={channel.id} channel={channel} service={service} home={home} />
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </main>
    </>
  )
}
