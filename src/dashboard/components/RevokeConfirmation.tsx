import { useEffect, useRef } from "preact/hooks"
import type { TokenView } from "../../client/index.ts"
import { tokenName } from "../text/TokenWords.ts"

/**
 * Asks before revoking a token, saying what else goes with it: every token it made, and theirs
 * (`also`; `undefined` while they are being looked up). A modal dialog: Escape or "Keep it" cancels.
 */
export const RevokeConfirmation = (props: {
  readonly token: TokenView
  readonly also: ReadonlyArray<TokenView> | undefined
  readonly onConfirm: () => void
  readonly onCancel: () => void
}) => {
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => dialog.current?.showModal(), [])
  const name = tokenName(props.token)
  const also = props.also?.filter((token) => token.status === "active")
  return (
    <dialog ref={dialog} class="confirm" aria-labelledby="revoke-title" aria-describedby="revoke-what" onClose={props.onCancel}>
      <h2 id="revoke-title">Revoke {name}?</h2>
      <p id="revoke-what">
        {also === undefined
          ? "Looking for the tokens it made…"
          : also.length === 0
          ? "It stops working at once. It made no token that still works: nothing else is revoked."
          : `It stops working at once, and so ${also.length === 1 ? "does the token" : `do the ${also.length} tokens`} it made, with theirs:`}
      </p>
      {also === undefined || also.length === 0 ? null : (
        <ul aria-label="Also revoked">
          {also.map((token) => <li key={token.id}>{tokenName(token)}</li>)}
        </ul>
      )}
      <div class="actions">
        <button type="button" class="danger" disabled={also === undefined} onClick={props.onConfirm}>
          {also === undefined || also.length === 0 ? "Revoke it" : `Revoke ${also.length + 1} tokens`}
        </button>
        <button type="button" class="quiet" onClick={() => dialog.current?.close()}>Keep it</button>
      </div>
    </dialog>
  )
}
