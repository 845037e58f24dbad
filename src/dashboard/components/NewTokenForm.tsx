import * as Option from "effect/Option"
import { useState } from "preact/hooks"
import { type ChannelId, channelSelector, exactly, Right, type ServiceId } from "../../client/index.ts"
import type { Device } from "../api/Devices.ts"
import type { NewToken } from "../../api/Tokens.ts"
import { channelName, dateAndTime } from "../text/TokenWords.ts"
import { serviceName } from "../text/ServiceName.ts"
import { DeviceWords } from "./DeviceWords.tsx"

const toggled = <A,>(set: ReadonlySet<A>, item: A): ReadonlySet<A> => {
  const next = new Set(set)
  if (!next.delete(item)) next.add(item)
  return next
}

/**
 * A new token: what it is for, a scope picked by choosing whole services (their channels now and to come)
 * or single channels, by name, its rights and an expiry. `create` answers the problem to show, if any.
 */
export const NewTokenForm = (props: {
  readonly services: ReadonlyArray<Device>
  /** When this session ends (`null`: never), which a token made with it cannot outlive. */
  readonly sessionEnds: number | null
  readonly create: (token: NewToken) => Promise<void>
  readonly onProblem: (problem: string) => void
}) => {
  const [label, setLabel] = useState("")
  const [wholeServices, setWholeServices] = useState<ReadonlySet<ServiceId>>(new Set())
  const [chosen, setChosen] = useState<ReadonlySet<ChannelId>>(new Set())
  const [rights, setRights] = useState<ReadonlySet<Right>>(new Set(["read"]))
  const [expiry, setExpiry] = useState("")
  const submit = (event: SubmitEvent) => {
    event.preventDefault()
    // A channel of a service chosen whole is in its reach already.
    const single = props.services.flatMap((service) =>
      wholeServices.has(service.id) ? [] : [...service.getters, ...service.setters].filter((channel) => chosen.has(channel.id))
    )
    if (wholeServices.size === 0 && single.length === 0) return props.onProblem("choose at least one device or channel the token reaches")
    // The end of the day chosen, in the person's own time zone.
    const ends = expiry === "" ? undefined : new Date(`${expiry}T23:59:59.999`).getTime()
    if (ends !== undefined && !Number.isFinite(ends)) return props.onProblem("the expiry is not a date")
    const scope = {
      channels: [
        ...[...wholeServices].map((service) => channelSelector({ service: exactly(service) })),
        ...single.map((channel) => channelSelector({ id: exactly(channel.id) }))
      ],
      rights: [...rights]
    }
    const expiresAt = ends === undefined ? Option.none() : Option.some(Option.some(ends))
    void props.create({ label, scope: Option.some(scope), expiresAt })
  }
  return (
    <form class="new-token" onSubmit={submit} aria-labelledby="new-token">
      <h2 id="new-token">A new token</h2>
      <p class="field">
        <label for="token-label">What it is for</label>
        <input id="token-label" type="text" value={label} onInput={(event) => setLabel(event.currentTarget.value)} />
      </p>
      <fieldset>
        <legend>What it reaches</legend>
        {props.services.map((service) => (
          <div key={service.id} class="reach">
            <label class="choice">
              <input type="checkbox" checked={wholeServices.has(service.id)} onChange={() => setWholeServices(toggled(wholeServices, service.id))} />
              <span><strong><DeviceWords text={serviceName(service)} /></strong>, all of it</span>
            </label>
            {[...service.getters, ...service.setters].map((channel) => (
              <label key={channel.id} class="choice nested">
                <input type="checkbox" disabled={wholeServices.has(service.id)} checked={wholeServices.has(service.id) || chosen.has(channel.id)}
                  onChange={() => setChosen(toggled(chosen, channel.id))} />
                <DeviceWords text={channelName(service, channel)} />
              </label>
            ))}
          </div>
        ))}
      </fieldset>
      <fieldset>
        <legend>What it may do</legend>
        {Right.literals.map((right) => (
          <label key={right} class="choice">
            <input type="checkbox" checked={rights.has(right)} onChange={() => setRights(toggled(rights, right))} />
            {right}
          </label>
        ))}
      </fieldset>
      <p class="field">
        <label for="token-expiry">When it stops working (optional)</label>
        <input id="token-expiry" type="date" value={expiry} aria-describedby="token-expiry-hint"
          onInput={(event) => setExpiry(event.currentTarget.value)} />
        <small id="token-expiry-hint">
          At the end of that day; empty, in 90 days. A token made here ends with this session at the latest
          {props.sessionEnds === null ? "" : ` (${dateAndTime(props.sessionEnds)})`}: for one that lasts longer, use <code>gateway tokens create</code>.
        </small>
      </p>
      <button type="submit">Create the token</button>
    </form>
  )
}
