import { type Color, pickedColor, shownHex } from "../text/ColorHex.ts"
import { Problem } from "./Field.tsx"
import { useSending } from "../state/Sending.ts"

/**
 * A colour picker for a LightColor setter, named by its light and "Colour": it shows the colour its
 * service reports (at full brightness: ColorHex.ts), not the one last picked, and sends a pick once it
 * is made (`change`, not every `input` while the picker is dragged), at the brightness the light
 * reports. Why the setter did not take it is shown beside it, in words.
 */
export const ColorPicker = (props: {
  readonly id: string
  readonly labelledBy: string
  readonly reported: Color | undefined
  readonly onPick: (color: Color) => Promise<string | undefined>
}) => {
  const { busy, problem, sending } = useSending()
  const pick = (hex: string) => {
    const color = pickedColor(hex, props.reported)
    if (color !== undefined) void sending(() => props.onPick(color))
  }
  return (
    <span class="control">
      <input id={props.id} type="color" value={shownHex(props.reported)} aria-labelledby={props.labelledBy} aria-busy={busy}
        onChange={(event) => pick(event.currentTarget.value)} />
      {props.reported === undefined ? <span class="muted">no colour reported</span> : null}
      <Problem message={problem} />
    </span>
  )
}
