import { Component } from "preact"
import type { ChannelId, Value } from "../../client/index.ts"
import type { Device } from "../api/Devices.ts"
import { kindValueType } from "../../domain/Kind.ts"
import { type CardControl, cardPlan } from "../state/CardPlan.ts"
import type { LiveHome } from "../state/LiveHome.ts"
import { readingName } from "../text/Readings.ts"
import { serviceName } from "../text/ServiceName.ts"
import { BrightnessSlider } from "./BrightnessSlider.tsx"
import { DeviceDetails } from "./DeviceDetails.tsx"
import { DeviceWords } from "./DeviceWords.tsx"
import { Reading } from "./Reading.tsx"
import { SetterControl } from "./SetterControl.tsx"

interface CardProps {
  readonly service: Device
  readonly home: LiveHome
  readonly rooms: ReadonlyArray<string>
}

/**
 * A control of the card, with a label of its own unless it is the main one (named by the device alone)
 * or a button, whose words say what it does ("Take a snapshot").
 */
const Control = (props: { readonly control: CardControl; readonly heading: string; readonly values: LiveHome["values"]; readonly send: LiveHome["send"] }) => {
  const { control, heading } = props
  const label = `label-${control.setter.id}`
  const labelled = !control.main && kindValueType(control.setter.kind) !== "Unit"
  const reported = control.shows === undefined ? undefined : props.values.get(control.shows.id)
  const setterControl = (
    <SetterControl setter={control.setter} reported={reported} valueId={control.shows === undefined ? undefined : `value-${control.shows.id}`}
      labelledBy={labelled ? `${heading} ${label}` : heading} send={(value: Value) => props.send(control.setter.id, value)} />
  )
  return !labelled ? setterControl : (
    <div class="control-row">
      <span id={label} class="control-name">{readingName(control.setter.kind)}</span>
      {setterControl}
    </div>
  )
}

/**
 * A device's card (docs/dashboard.md): its name, its main control beside it, its other controls, a
 * brightness slider for a light, the readings no control shows, and its ids, tags and room behind
 * "Details".
 */
const DeviceCard = (props: CardProps) => {
  const { service, home } = props
  const heading = `service-${service.id}`
  const name = serviceName(service)
  const plan = cardPlan(service)
  const main = plan.controls.find((control) => control.main)
  const brightness = plan.brightness
  return (
    <article class="card" aria-labelledby={heading}>
      <div class="card-head">
        <h3 id={heading}><DeviceWords text={name} /></h3>
        {main === undefined ? null : <Control control={main} heading={heading} values={home.values} send={home.send} />}
      </div>
      {plan.controls.filter((control) => !control.main).map((control) => (
        <Control key={control.setter.id} control={control} heading={heading} values={home.values} send={home.send} />
      ))}
      {brightness === undefined ? null : (
        <div class="control-row">
          <span id={`brightness-${service.id}`} class="control-name">Brightness</span>
          <BrightnessSlider brightness={brightness} labelledBy={`${heading} brightness-${service.id}`} send={(value) => home.send(brightness.control.setter.id, value)}
            reported={brightness.control.shows === undefined ? undefined : home.values.get(brightness.control.shows.id)} />
        </div>
      )}
      {plan.readings.length === 0 ? null : (
        <dl class="readings">
          {plan.readings.map((getter) => <Reading key={getter.id} getter={getter} value={home.values.get(getter.id)} device={name} />)}
        </dl>
      )}
      <DeviceDetails service={service} home={home} rooms={props.rooms} />
    </article>
  )
}

const channelIds = (service: Device): ReadonlyArray<ChannelId> => service.getters.map((getter) => getter.id)

/**
 * A card drawn again only when its service, the rooms or one of its own values changed: a value of one
 * device, of a home of a thousand, redraws one card.
 */
export class LiveDeviceCard extends Component<CardProps> {
  override shouldComponentUpdate(next: CardProps): boolean {
    const now = this.props
    return next.service !== now.service || next.rooms !== now.rooms ||
      channelIds(next.service).some((id) => next.home.values.get(id) !== now.home.values.get(id))
  }

  override render() {
    return <DeviceCard {...this.props} />
  }
}
