import * as Option from "effect/Option"
import { useEffect, useMemo, useState } from "preact/hooks"
import { type ChannelId, type ChannelView, channelSelector, createClient, exactly, Right, type TokenView } from "../client/index.ts"
import { Problem } from "./Field.tsx"
import { failureInWords, sessionEnded } from "./Words.ts"


/**
 * The tokens of the signed-in user (as many as this session's token manages): listed, created with a
 * scope picked by choosing channels and rights (its secret shown once), and revoked.
 */
export const TokensPage = (props: { readonly token: string; readonly onExpired: () => void }) => {
  const client = useMemo(() => createClient({ url: location.origin, token: props.token, vocabulary: "b" }), [props.token])
  const [tokens, setTokens] = useState<ReadonlyArray<TokenView> | undefined>(undefined)
  const [channels, setChannels] = useState<ReadonlyArray<ChannelView>>([])
  const [label, setLabel] = useState("")
  const [chosen, setChosen] = useState<ReadonlySet<ChannelId>>(new Set())
  const [rights, setRights] = useState<ReadonlySet<Right>>(new Set(["read"]))
  const [secret, setSecret] = useState<string | undefined>(undefined)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const failed = (error: unknown) => (sessionEnded(error) ? props.onExpired() : setProblem(failureInWords(error)))
  const reload = () => client.tokens().then(setTokens, failed)
  useEffect(() => {
    void reload()
    Promise.all([client.getters(), client.setters()]).then(([getters, setters]) => setChannels([...getters, ...setters]), failed)
    return () => void client.close()
  }, [client])
  const toggled = <A,>(set: ReadonlySet<A>, item: A): ReadonlySet<A> => {
    const next = new Set(set)
    if (!next.delete(item)) next.add(item)
    return next
  }
  const create = async (event: SubmitEvent) => {
    event.preventDefault()
    if (chosen.size === 0) return setProblem("choose at least one channel the token reaches")
    try {
      const scope = { channels: [...chosen].map((id) => channelSelector({ id: exactly(id) })), rights: [...rights] }
      const created = await client.createToken({ label, scope: Option.some(scope), expiresAt: Option.none() })
      setSecret(created.secret)
      setProblem(undefined)
      await reload()
    } catch (error) {
      failed(error)
    }
  }
  const revoke = (id: number) => client.revokeToken(id).then(reload, failed)
  return (
    <main>
      <h1>Tokens</h1>
      <Problem message={problem} />
      <form onSubmit={create} aria-labelledby="new-token">
        <h2 id="new-token">A new token</h2>
        <p class="field">
          <label for="token-label">What it is for</label>
          <input id="token-label" type="text" value={label} onInput={(event) => setLabel(event.currentTarget.value)} />
        </p>
        <fieldset>
          <legend>The channels it reaches</legend>
          {channels.map((channel) => (
            <label key={channel.id} class="choice">
              <input type="checkbox" checked={chosen.has(channel.id)} onChange={() => setChosen(toggled(chosen, channel.id))} />
              {channel.id}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>What it may do</legend>
          {Right.literals.map((right) => (
            <label key={right} class="choice">
              <input type="checkbox" checked={rights.has(right)} onChange={() => setRights(toggled(rights, right))} />
              {right}
            </label>
          ))}
        </fieldset>
        <button type="submit">Create the token</button>
      </form>
      {secret === undefined ? null : (
        <p role="status">
          The new token, shown this once (copy it now): <output class="secret" aria-label="The new token">{secret}</output>
        </p>
      )}
      <h2>Your tokens</h2>
      {tokens === undefined ? <p>Loading…</p> : (
        <ul class="tokens" aria-label="Tokens">
          {tokens.map((token) => (
            <li key={token.id}>
              <strong>{token.label === "" ? `token ${token.id}` : token.label}</strong>{" "}
              <span class="muted">{token.kind}, {token.status}{token.current ? ", this session" : ""}</span>
              {token.status === "active" && !token.current
                ? <button type="button" aria-label={`Revoke ${token.label === "" ? `token ${token.id}` : token.label}`} onClick={() => void revoke(token.id)}>Revoke</button>
                : null}
            </li>
          ))}
        </ul>
      )}
    </main>
  )
}
