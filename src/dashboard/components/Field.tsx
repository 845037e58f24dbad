/** A labelled input: the label names it for screen readers, and a hint, if any, describes it. */
export const Field = (props: {
  readonly id: string
  readonly label: string
  readonly type: "text" | "email" | "password"
  readonly autocomplete: string
  readonly value: string
  readonly onInput: (value: string) => void
  readonly hint?: string
}) => {
  const common = {
    id: props.id,
    name: props.id,
    autocomplete: props.autocomplete,
    required: true,
    value: props.value,
    "aria-describedby": props.hint === undefined ? undefined : `${props.id}-hint`,
    onInput: (event: { readonly currentTarget: HTMLInputElement }) => props.onInput(event.currentTarget.value)
  }
  return (
    <p class="field">
      <label for={props.id}>{props.label}</label>
      {props.type === "password"
        ? <input type="password" {...common} />
        : props.type === "email"
        ? <input type="email" {...common} />
        : <input type="text" {...common} />}
      {props.hint === undefined ? null : <small id={`${props.id}-hint`}>{props.hint}</small>}
    </p>
  )
}

/** What went wrong, in the gateway's words, announced as it appears. */
export const Problem = (props: { readonly message: string | undefined }) =>
  props.message === undefined ? null : <p class="problem" role="alert">{props.message}</p>
