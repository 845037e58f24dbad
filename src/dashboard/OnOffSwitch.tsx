import { useState } from "preact/hooks"
import { Problem } from "./Field.tsx"

/**
 * A switch for an OnOff setter: a button with `role="switch"`, named by the channel it drives, that
 * shows the state its service reports (not the one last asked for) and sends the other one. Why the
 * setter did not take it is shown beside it, in words.
 */
export const OnOffSwitch = (props: {
  readonly labelledBy: string
  readonly on: boolean | undefined
  readonly onSwitch: (on: boolean) => Promise<string | undefined>
}) => {
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const toggle = async () => {
    setBusy(true)
    setProblem(await props.onSwitch(props.on !== true))
    setBusy(false)
  }
  return (
    <span class="control">
      <button type="button" role="switch" class="switch" aria-checked={props.on === true} aria-labelledby={props.labelledBy}
        aria-busy={busy} onClick={() => void toggle()}>
        {props.on === undefined ? "Unknown" : props.on ? "On" : "Off"}
      </button>
      <Problem message={problem} />
    </span>
  )
}
