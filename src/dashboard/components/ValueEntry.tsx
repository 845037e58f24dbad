import { useState } from "preact/hooks"
import type { Value } from "../../client/index.ts"
import { Problem } from "./Field.tsx"
import { useSending } from "../state/Sending.ts"

/**
 * A field for a setter whose values are typed in (a set point, a duration, a text…), named by the
 * device and what it sets, sent on submit; its placeholder and unit say what it takes. Why the setter
 * did not take a value is shown beside it, in words; that it did, too, for there may be nothing else on
 * the page to show it.
 */
export const ValueEntry = (props: {
  readonly id: string
  readonly labelledBy: string
  readonly type: "number" | "text"
  /** The unit shown after the field, if any. */
  readonly unit?: string
  readonly placeholder: string
  /** The value the text says, or why it says none, in words. */
  readonly read: (text: string) => Value | string
  readonly onSend: (value: Value) => Promise<string | undefined>
}) => {
  const [text, setText] = useState("")
  const { busy, problem, sent, setProblem, sending, clear } = useSending()
  const submit = (event: SubmitEvent) => {
    event.preventDefault()
    const value = props.read(text)
    if (typeof value === "string") return setProblem(value)
    void sending(() => props.onSend(value))
  }
  const field = {
    id: props.id,
    value: text,
    placeholder: props.placeholder,
    "aria-labelledby": props.labelledBy,
    onInput: (event: { readonly currentTarget: HTMLInputElement }) => {
      setText(event.currentTarget.value)
      clear()
    }
  }
  return (
    <form class="control" onSubmit={submit} aria-labelledby={props.labelledBy}>
      {props.type === "number" ? <input type="number" step="any" required {...field} /> : <input type="text" {...field} />}
      {props.unit === undefined ? null : <span aria-hidden="true">{props.unit}</span>}
      <button type="submit" disabled={busy}>{props.type === "number" ? "Set" : "Send"}</button>
      <span role="status" class="muted">{sent ? "Sent." : ""}</span>
      <Problem message={problem} />
    </form>
  )
}

/** A button for a setter that takes no value but the fact of being sent (TakeSnapshot): Unit, named by its words and its device. */
export const SendButton = (props: {
  readonly id: string
  readonly labelledBy: string
  readonly words: string
  readonly onSend: () => Promise<string | undefined>
}) => {
  const { busy, problem, sent, sending } = useSending()
  return (
    <span class="control">
      <button id={props.id} type="button" aria-labelledby={`${props.id} ${props.labelledBy}`} aria-busy={busy} onClick={() => void sending(props.onSend)}>{props.words}</button>
      <span role="status" class="muted">{sent ? "Sent." : ""}</span>
      <Problem message={problem} />
    </span>
  )
}
