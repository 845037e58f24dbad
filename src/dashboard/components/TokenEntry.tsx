import type { TokenView } from "../../client/index.ts"
import type { Device } from "../api/Devices.ts"
import { creatorInWords, lifeInWords, reachInWords, rightsInWords, tokenName } from "../text/TokenWords.ts"

const kindInWords: Readonly<Record<TokenView["kind"], string>> = {
  session: "Session",
  api: "API token",
  comparison: "Comparison token"
}

/** One token of the list: its name, what it reaches and may do, who made it, its life; and revoking it, if it still works. */
export const TokenEntry = (props: {
  readonly token: TokenView
  readonly tokens: ReadonlyArray<TokenView>
  readonly services: ReadonlyArray<Device>
  readonly onRevoke: (token: TokenView) => void
}) => {
  const { token } = props
  const name = tokenName(token)
  return (
    <li aria-labelledby={`token-${token.id}`}>
      <h3 id={`token-${token.id}`}>{name}</h3>
      <p class="muted">{kindInWords[token.kind]}, {token.status}; {lifeInWords(token)}</p>
      <dl class="facts">
        <dt>Reaches</dt>
        <dd>{reachInWords(token, props.services).join("; ")}</dd>
        <dt>May</dt>
        <dd>{rightsInWords(token)}</dd>
        <dt>Made by</dt>
        <dd>{creatorInWords(token, props.tokens)}</dd>
      </dl>
      {token.status === "active" && !token.current
        ? <button type="button" class="danger" aria-label={`Revoke ${name}`} onClick={() => props.onRevoke(token)}>Revoke</button>
        : null}
    </li>
  )
}
