import { Problem } from "./Field.tsx"
import { useSending } from "../state/Sending.ts"

/**
 * A switch for a two-state setter (OnOff, DoorLocked): a button with `role="switch"`, named by the
 * device it drives, that shows the state its service reports (not the one last asked for) and sends
 * the other one. Why the setter did not take it is shown beside it, in words.
 */
export const StateSwitch = (props: {
  /** Its id, when it shows a getter's value (`value-<getter id>`). */
  readonly id?: string | undefined
  readonly labelledBy: string
  /** The state reported: `true` the checked one (On, Locked); undefined when the service reports none. */
  readonly checked: boolean | undefined
  /** The words of the unchecked and the checked state. */
  readonly states: readonly [string, string]
  readonly onSwitch: (checked: boolean) => Promise<string | undefined>
}) => {
  const { busy, problem, sending } = useSending()
  return (
    <span class="control">
      <button id={props.id} type="button" role="switch" class="switch" aria-checked={props.checked === true} aria-labelledby={props.labelledBy}
        aria-busy={busy} onClick={() => void sending(() => props.onSwitch(props.checked !== true))}>
        {props.checked === undefined ? "Unknown" : props.states[props.checked ? 1 : 0]}
      </button>
      <Problem message={problem} />
    </span>
  )
}
