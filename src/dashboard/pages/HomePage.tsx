import * as Option from "effect/Option"
import { useState } from "preact/hooks"
import type { ChannelView, ServiceView } from "../../client/index.ts"
import { DeviceWords } from "../components/DeviceWords.tsx"
import { Problem } from "../components/Field.tsx"
import { type LiveHome, useLiveHome } from "../state/LiveHome.ts"
import { givenName, serviceName } from "../text/ServiceName.ts"
import { SetterControl } from "../components/SetterControl.tsx"
import { TagEditor } from "../components/TagEditor.tsx"
import { kindInWords, valueInWords } from "../text/Words.ts"
import type { PageProps } from "./SignedInPage.tsx"

/** Whether `service` carries `tag`, or one of its channels does. */
const carries = (service: ServiceView, tag: string): boolean =>
  [service.tags, ...[...service.getters, ...service.setters].map((channel) => channel.tags)].some((tags) => tags.some((t) => t === tag))

/**
 * A service's heading: the name its device gives itself (vocabulary B's `properties.name`), its id
 * beneath with its model; its id alone when it has no name.
 */
const ServiceHeading = (props: { readonly service: ServiceView }) => {
  const { service } = props
  const named = givenName(service) !== undefined
  const about = [named ? service.id : undefined, Option.getOrUndefined(service.properties)?.["model"]].filter((part) => part !== undefined)
  return (
    <>
      <h2 id={`service-${service.id}`}><DeviceWords text={serviceName(service)} /></h2>
      {about.length === 0 ? null : <p class="about"><DeviceWords text={about.join(" · ")} /></p>}
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
        : <SetterControl channel={channel} service={props.service} home={home} name={name} />}
    </li>
  )
}

/** The home as the signed-in user sees it: its services and their channels, with live values and a control for each setter. */
export const HomePage = (props: PageProps) => {
  const home = useLiveHome(props.token, props.onExpired)
  const [filter, setFilter] = useState("")
  const shown = home.services?.filter((service) => filter === "" || carries(service, filter))
  return (
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
  )
}
