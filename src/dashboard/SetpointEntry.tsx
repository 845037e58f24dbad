import { useState } from "preact/hooks"
import { Problem } from "./Field.tsx"
import { useSending } from "./Sending.ts"

/**
 * A number entry for a thermostat's setter: the setpoint in the unit its service reports (Celsius when
 * it reports none), sent on submit. Why the setter did not take it is shown beside it, in words.
 */
export const SetpointEntry = (props: {
  readonly id: string
  readonly labelledBy: string
  readonly unit: "C" | "F"
  readonly reported: number | undefined
  readonly onSet: (degrees: number) => Promise<string | undefined>
}) => {
  const [text, setText] = useState("")
  const { busy, problem, setProblem, sending } = useSending()
  const submit = (event: SubmitEvent) => {
    event.preventDefault()
    const degrees = Number(text)
    if (text.trim() === "" || !Number.isFinite(degrees)) return setProblem("a setpoint is a number of degrees")
    void sending(() => props.onSet(degrees))
  }
  return (
    <form class="control" onSubmit={submit} aria-labelledby={props.labelledBy}>
      <input id={props.id} type="number" inputMode="decimal" step="0.5" required value={text}
        placeholder={props.reported === undefined ? "" : String(props.reported)} aria-labelledby={props.labelledBy}
        onInput={(event) => setText(event.currentTarget.value)} />
      <span aria-hidden="true">°{props.unit}</span>
      <button type="submit" disabled={busy}>Set</button>
      <Problem message={problem} />
    </form>
  )
}
