import type { Value } from "../../client/index.ts"
import type { DeviceChannel } from "../api/Devices.ts"
import { kindValueType } from "../../domain/Kind.ts"
import { readingInWords } from "../text/Readings.ts"
import { ColorPicker } from "./ColorPicker.tsx"
import { StateSwitch } from "./StateSwitch.tsx"
import { SendButton, ValueEntry } from "./ValueEntry.tsx"

const aNumber = (text: string): number | undefined => {
  const n = Number(text)
  return text.trim() === "" || !Number.isFinite(n) ? undefined : n
}

export interface SetterControlProps {
  readonly setter: DeviceChannel
  /** The value the service reports for it (CardPlan.ts's `shows`), if any. */
  readonly reported: Value | undefined
  /** The id its reported value is shown under (`value-<getter id>`), when it shows a getter's. */
  readonly valueId: string | undefined
  /** The ids of what names it: the device's heading, and for all but the card's main control, its own label. */
  readonly labelledBy: string
  readonly send: (value: Value) => Promise<string | undefined>
}

/** The value reported, in words, where a field's control shows it (a set point beside its field). */
const Reported = (props: { readonly id: string | undefined; readonly kind: DeviceChannel["kind"]; readonly value: Value | undefined }) =>
  props.id === undefined ? null : <span id={props.id} class="value">{readingInWords(props.kind, props.value)}</span>

/**
 * The control of a setter, by the type of the values its kind takes: a switch for two states, a colour
 * picker, a button for a setter that takes no value, a field for the values typed in (saying what it
 * takes, and its unit); none for JSON, binary data and timestamps.
 */
export const SetterControl = (props: SetterControlProps) => {
  const { setter, reported: now, valueId, labelledBy, send } = props
  const { kind } = setter
  const entry = { id: `entry-${setter.id}`, labelledBy, onSend: send }
  const reported = <Reported id={valueId} kind={kind} value={now} />
  switch (kindValueType(kind)) {
    case "OnOff":
      return (
        <StateSwitch id={valueId} labelledBy={labelledBy} states={["Off", "On"]} checked={now?._tag === "OnOff" ? now.state === "On" : undefined}
          onSwitch={(on) => send({ _tag: "OnOff", state: on ? "On" : "Off" })} />
      )
    case "OpenClosed":
      return (
        <StateSwitch id={valueId} labelledBy={labelledBy} states={["Closed", "Open"]} checked={now?._tag === "OpenClosed" ? now.state === "Open" : undefined}
          onSwitch={(open) => send({ _tag: "OpenClosed", state: open ? "Open" : "Closed" })} />
      )
    case "DoorLocked":
      return (
        <StateSwitch id={valueId} labelledBy={labelledBy} states={["Unlocked", "Locked"]} checked={now?._tag === "DoorLocked" ? now.state === "Locked" : undefined}
          onSwitch={(locked) => send({ _tag: "DoorLocked", state: locked ? "Locked" : "Unlocked" })} />
      )
    case "ExtBool":
      return kind._tag !== "Extension" ? null : (
        <StateSwitch id={valueId} labelledBy={labelledBy} states={["No", "Yes"]} checked={now?._tag === "ExtBool" ? now.value : undefined}
          onSwitch={(value) => send({ _tag: "ExtBool", value, vendor: kind.vendor, adapter: kind.adapter, kind: kind.kind })} />
      )
    case "Color":
      return <ColorPicker id={valueId ?? `color-${setter.id}`} labelledBy={labelledBy} reported={now?._tag === "Color" ? now : undefined} onPick={send} />
    case "Temperature": {
      const unit = now?._tag === "Temperature" ? now.unit : "C"
      return (
        <>
          {reported}
          <ValueEntry {...entry} type="number" unit={`°${unit}`} placeholder="e.g. 21.5"
            read={(text) => {
              const degrees = aNumber(text)
              return degrees === undefined ? "a temperature is a number of degrees" : { _tag: "Temperature", unit, degrees }
            }} />
        </>
      )
    }
    case "Duration":
      return (
        <>
          {reported}
          <ValueEntry {...entry} type="number" unit="min" placeholder="minutes"
            read={(text) => {
              const minutes = aNumber(text)
              return minutes === undefined || minutes < 0 ? "a duration is a number of minutes, 0 or more" : { _tag: "Duration", seconds: minutes * 60 }
            }} />
        </>
      )
    case "ExtNumeric":
      return kind._tag !== "Extension" ? null : (
        <>
          {reported}
          <ValueEntry {...entry} type="number" placeholder="a number" read={(text) => {
            const value = aNumber(text)
            return value === undefined ? "a number" : { _tag: "ExtNumeric", value, vendor: kind.vendor, adapter: kind.adapter, kind: kind.kind }
          }} />
        </>
      )
    case "String":
      return (
        <>
          {reported}
          <ValueEntry {...entry} type="text" placeholder={kind._tag === "Builtin" && kind.name === "Log" ? "a message to say" : "text"}
            read={(value) => ({ _tag: "String", value })} />
        </>
      )
    case "Unit":
      return (
        <SendButton id={`send-${setter.id}`} labelledBy={labelledBy} onSend={() => send({ _tag: "Unit" })}
          words={kind._tag === "Builtin" && kind.name === "TakeSnapshot" ? "Take a snapshot" : "Send"} />
      )
    case "TimeStamp":
    case "Json":
    case "Binary":
      return <span class="muted">no control here yet</span>
  }
}
