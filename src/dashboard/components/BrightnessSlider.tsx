import type { Value } from "../../client/index.ts"
import type { Brightness } from "../state/CardPlan.ts"
import { useSending } from "../state/Sending.ts"
import { Problem } from "./Field.tsx"

/**
 * The scale of a brightness channel: Zigbee2MQTT's and MQTT discovery's default `brightness_scale` (the
 * API does not say a channel's range to a client).
 */
const channelScale = 255

/** The brightness a light reports, in percent; undefined when it reports none. */
const percentOf = (brightness: Brightness, reported: Value | undefined): number | undefined =>
  reported?._tag === "ExtNumeric" && brightness._tag === "Channel"
    ? Math.round((reported.value / channelScale) * 100)
    : reported?._tag === "Color" && brightness._tag === "ColourBrightness"
    ? Math.round(reported.v * 100)
    : undefined

/** What setting `percent` sends: the channel's level, or the colour reported at that brightness (white when none). */
const valueAt = (brightness: Brightness, reported: Value | undefined, percent: number): Value | undefined => {
  const kind = brightness.control.setter.kind
  if (brightness._tag === "Channel") {
    return kind._tag === "Extension"
      ? { _tag: "ExtNumeric", value: Math.round((percent / 100) * channelScale), vendor: kind.vendor, adapter: kind.adapter, kind: kind.kind }
      : undefined
  }
  const colour = reported?._tag === "Color" ? reported : { _tag: "Color" as const, h: 0, s: 0, v: 1 }
  return { ...colour, v: percent / 100 }
}

/**
 * A light's brightness, 0 to 100 %, as a slider named by the light and "Brightness": it drives the
 * light's brightness channel where it has one, otherwise its colour's brightness (`v`, at the hue and
 * saturation it reports). It shows what the light reports, and sends once the slider is let go.
 */
export const BrightnessSlider = (props: {
  readonly brightness: Brightness
  readonly reported: Value | undefined
  readonly labelledBy: string
  readonly send: (value: Value) => Promise<string | undefined>
}) => {
  const { busy, problem, sending } = useSending()
  const percent = percentOf(props.brightness, props.reported)
  const set = (text: string) => {
    const value = valueAt(props.brightness, props.reported, Number(text))
    if (value !== undefined) void sending(() => props.send(value))
  }
  return (
    <span class="control">
      <input type="range" min="0" max="100" step="1" value={percent ?? 0} aria-labelledby={props.labelledBy} aria-busy={busy}
        aria-valuetext={percent === undefined ? "not reported" : `${percent} %`} onChange={(event) => set(event.currentTarget.value)} />
      <span class="value" aria-hidden="true">{percent === undefined ? "—" : `${percent} %`}</span>
      <Problem message={problem} />
    </span>
  )
}
