import type { ChannelView, ServiceView, Value } from "../../client/index.ts"
import { kindEquals, kindValueType } from "../../domain/Kind.ts"
import { ColorPicker } from "./ColorPicker.tsx"
import type { LiveHome } from "../state/LiveHome.ts"
import { StateSwitch } from "./StateSwitch.tsx"
import { SendButton, ValueEntry } from "./ValueEntry.tsx"
import { valueInWords } from "../text/Words.ts"

/**
 * What a service reports for a setter: the value of its one getter of the same kind, if it has exactly
 * one (the API does not say which getter a setter drives).
 */
const reported = (service: ServiceView, setter: ChannelView, values: LiveHome["values"]): Value | undefined => {
  const getters = service.getters.filter((getter) => kindEquals(getter.kind, setter.kind))
  return getters.length === 1 && getters[0] !== undefined ? values.get(getters[0].id) : undefined
}

const aNumber = (text: string): number | undefined => {
  const n = Number(text)
  return text.trim() === "" || !Number.isFinite(n) ? undefined : n
}

/**
 * The control of a setter, by the type of the values its kind takes: a switch for two states, a colour
 * picker, a button for a setter that takes no value, a field for the values typed in; none for JSON,
 * binary data and timestamps.
 */
export const SetterControl = (props: { readonly channel: ChannelView; readonly service: ServiceView; readonly home: LiveHome; readonly name: string }) => {
  const { channel, home, name } = props
  const { kind } = channel
  const now = reported(props.service, channel, home.values)
  const send = (value: Value) => home.send(channel.id, value)
  const entry = { id: `entry-${channel.id}`, labelledBy: name, reported: now === undefined ? undefined : valueInWords(now), onSend: send }
  switch (kindValueType(kind)) {
    case "OnOff":
      return (
        <StateSwitch labelledBy={name} states={["Off", "On"]} checked={now?._tag === "OnOff" ? now.state === "On" : undefined}
          onSwitch={(on) => send({ _tag: "OnOff", state: on ? "On" : "Off" })} />
      )
    case "OpenClosed":
      return (
        <StateSwitch labelledBy={name} states={["Closed", "Open"]} checked={now?._tag === "OpenClosed" ? now.state === "Open" : undefined}
          onSwitch={(open) => send({ _tag: "OpenClosed", state: open ? "Open" : "Closed" })} />
      )
    case "DoorLocked":
      return (
        <StateSwitch labelledBy={name} states={["Unlocked", "Locked"]} checked={now?._tag === "DoorLocked" ? now.state === "Locked" : undefined}
          onSwitch={(locked) => send({ _tag: "DoorLocked", state: locked ? "Locked" : "Unlocked" })} />
      )
    case "ExtBool":
      return kind._tag !== "Extension" ? null : (
        <StateSwitch labelledBy={name} states={["false", "true"]} checked={now?._tag === "ExtBool" ? now.value : undefined}
          onSwitch={(value) => send({ _tag: "ExtBool", value, vendor: kind.vendor, adapter: kind.adapter, kind: kind.kind })} />
      )
    case "Color":
      return <ColorPicker id={`color-${channel.id}`} labelledBy={name} reported={now?._tag === "Color" ? now : undefined} onPick={send} />
    case "Temperature": {
      const unit = now?._tag === "Temperature" ? now.unit : "C"
      return (
        <ValueEntry {...entry} type="number" unit={`°${unit}`} reported={now?._tag === "Temperature" ? String(now.degrees) : undefined}
          read={(text) => {
            const degrees = aNumber(text)
            return degrees === undefined ? "a temperature is a number of degrees" : { _tag: "Temperature", unit, degrees }
          }} />
      )
    }
    case "Duration":
      return (
        <ValueEntry {...entry} type="number" unit="s" reported={now?._tag === "Duration" ? String(now.seconds) : undefined}
          read={(text) => {
            const seconds = aNumber(text)
            return seconds === undefined || seconds < 0 ? "a duration is a number of seconds, 0 or more" : { _tag: "Duration", seconds }
          }} />
      )
    case "ExtNumeric":
      return kind._tag !== "Extension" ? null : (
        <ValueEntry {...entry} type="number" read={(text) => {
          const value = aNumber(text)
          return value === undefined ? "a number" : { _tag: "ExtNumeric", value, vendor: kind.vendor, adapter: kind.adapter, kind: kind.kind }
        }} />
      )
    case "String":
      return <ValueEntry {...entry} type="text" read={(value) => ({ _tag: "String", value })} />
    case "Unit":
      return <SendButton id={`send-${channel.id}`} labelledBy={name} onSend={() => send({ _tag: "Unit" })} />
    case "TimeStamp":
    case "Json":
    case "Binary":
      return <span class="muted">no control here yet</span>
  }
}
