import type { ChannelView, ServiceView, Value } from "../client/index.ts"
import { Problem } from "./Field.tsx"
import { type LiveHome, useLiveHome } from "./LiveHome.ts"
import { OnOffSwitch } from "./OnOffSwitch.tsx"
import { kindInWords, valueInWords } from "./Words.ts"

const isOnOff = (channel: ChannelView): boolean => channel.kind._tag === "Builtin" && channel.kind.name === "OnOff"

/** The state a service reports for its OnOff setters: its one OnOff getter's value, if it has exactly one. */
const reportedState = (service: ServiceView, values: LiveHome["values"]): boolean | undefined => {
  const getters = service.getters.filter(isOnOff)
  const value: Value | undefined = getters.length === 1 && getters[0] !== undefined ? values.get(getters[0].id) : undefined
  return value?._tag === "OnOff" ? value.state === "On" : undefined
}

const Tags = (props: { readonly tags: ReadonlyArray<string> }) =>
  props.tags.length === 0 ? null : <span class="tags">{props.tags.map((tag) => <span key={tag} class="tag">{tag}</span>)}</span>

const Channel = (props: { readonly channel: ChannelView; readonly service: ServiceView; readonly home: LiveHome }) => {
  const { channel, home } = props
  const name = `name-${channel.id}`
  const value = home.values.get(channel.id)
  return (
    <li class="channel">
      <span id={name} class="channel-name">{channel.id}</span>
      <span class="muted">{kindInWords(channel.kind)}</span>
      <Tags tags={channel.tags} />
      {channel.mechanism === "getter"
        ? <span id={`value-${channel.id}`} class="value">{value === undefined ? "no value yet" : valueInWords(value)}</span>
        : isOnOff(channel)
        ? (
          <OnOffSwitch labelledBy={name} on={reportedState(props.service, home.values)}
            onSwitch={(on) => home.send(channel.id, { _tag: "OnOff", state: on ? "On" : "Off" })} />
        )
        : <span class="muted">no control here yet</span>}
    </li>
  )
}

/** The home as the signed-in user sees it: its services and their channels, with live values and switches. */
export const HomePage = (props: { readonly token: string; readonly onLogout: () => void; readonly onExpired: () => void }) => {
  const home = useLiveHome(props.token, props.onExpired)
  return (
    <>
      <header>
        <p class="brand">Home gateway</p>
        <button type="button" onClick={props.onLogout}>Sign out</button>
      </header>
      <main>
        <h1>Your home</h1>
        <Problem message={home.problem} />
        {home.services === undefined ? <p>Loading…</p> : (
          <ul class="services" aria-label="Services">
            {home.services.map((service) => (
              <li key={service.id}>
                <h2 id={`service-${service.id}`}>{service.id}</h2>
                <Tags tags={service.tags} />
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
