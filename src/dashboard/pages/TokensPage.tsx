import * as Option from "effect/Option"
import { useEffect, useMemo, useState } from "preact/hooks"
import { type ChannelId, channelSelector, createClient, exactly, Right, type ServiceId, type ServiceView, type TokenView } from "../../client/index.ts"
import { DeviceWords } from "../components/DeviceWords.tsx"
import { Problem } from "../components/Field.tsx"
import { serviceName } from "../text/ServiceName.ts"
import { failureInWords, sessionEnded } from "../text/Words.ts"
import type { PageProps } from "./SignedInPage.tsx"

/** A day as a person reads it, in their own locale. */
const day = (epochMillis: number): string => new Date(epochMillis).toLocaleDateString()

/** A token as the list names it: its label, or its id when it has none. */
const tokenName = (token: TokenView): string => (token.label === "" ? `token ${token.id}` : token.label)

const lifeInWords = (token: TokenView): string =>
  [
    token.expiresAt === null ? "never expires" : `${token.status === "expired" ? "expired" : "expires"} ${day(token.expiresAt)}`,
    token.lastUsedAt === null ? "never used" : `last used ${day(token.lastUsedAt)}`
  ].join(", ")

/** Which token created this one, in words: this session, a token listed here by its name, or one this session does not manage. */
const creatorInWords = (token: TokenView, tokens: ReadonlyArray<TokenView>): string => {
  if (token.createdBy === null) return ""
  const creator = tokens.find((other) => other.id === token.createdBy)
  return `; made by ${creator === undefined ? `token ${token.createdBy}` : creator.current ? "this session" : tokenName(creator)}`
}

const toggled = <A,>(set: ReadonlySet<A>, item: A): ReadonlySet<A> => {
  const next = new Set(set)
  if (!next.delete(item)) next.add(item)
  return next
}

/**
 * The tokens of the signed-in user (as many as this session's token manages): listed with when they
 * end and which token made each, created with a scope picked by choosing whole services (their channels now and to come) or
 * single channels, rights and an expiry (its secret shown once), and revoked.
 */
export const TokensPage = (props: PageProps) => {
  const client = useMemo(() => createClient({ url: location.origin, token: props.token, vocabulary: "b" }), [props.token])
  const [tokens, setTokens] = useState<ReadonlyArray<TokenView> | undefined>(undefined)
  const [services, setServices] = useState<ReadonlyArray<ServiceView>>([])
  const [label, setLabel] = useState("")
  const [wholeServices, setWholeServices] = useState<ReadonlySet<ServiceId>>(new Set())
  const [chosen, setChosen] = useState<ReadonlySet<ChannelId>>(new Set())
  const [rights, setRights] = useState<ReadonlySet<Right>>(new Set(["read"]))
  const [expiry, setExpiry] = useState("")
  const [secret, setSecret] = useState<string | undefined>(undefined)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const failed = (error: unknown) => (sessionEnded(error) ? props.onExpired() : setProblem(failureInWords(error)))
  const reload = () => client.tokens().then(setTokens, failed)
  useEffect(() => {
    void reload()
    client.services().then(setServices, failed)
    return () => void client.close()
  }, [client])
  const sessionEnds = tokens?.find((token) => token.current)?.expiresAt ?? null
  const create = async (event: SubmitEvent) => {
    event.preventDefault()
    // A channel of a service chosen whole is in its reach already.
    const single = services.flatMap((service) =>
      wholeServices.has(service.id) ? [] : [...service.getters, ...service.setters].filter((channel) => chosen.has(channel.id))
    )
    if (wholeServices.size === 0 && single.length === 0) return setProblem("choose at least one service or channel the token reaches")
    // The end of the day chosen, in the person's own time zone.
    const ends = expiry === "" ? undefined : new Date(`${expiry}T23:59:59.999`).getTime()
    if (ends !== undefined && !Number.isFinite(ends)) return setProblem("the expiry is not a date")
    try {
      const scope = {
        channels: [
          ...[...wholeServices].map((service) => channelSelector({ service: exactly(service) })),
          ...single.map((channel) => channelSelector({ id: exactly(channel.id) }))
        ],
        rights: [...rights]
      }
      const expiresAt = ends === undefined ? Option.none() : Option.some(Option.some(ends))
      const created = await client.createToken({ label, scope: Option.some(scope), expiresAt })
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
          <legend>What it reaches</legend>
          {services.map((service) => (
            <div key={service.id} class="reach">
              <label class="choice">
                <input type="checkbox" checked={wholeServices.has(service.id)} onChange={() => setWholeServices(toggled(wholeServices, service.id))} />
                <strong><DeviceWords text={serviceName(service)} /></strong>, all its channels
              </label>
              {[...service.getters, ...service.setters].map((channel) => (
                <label key={channel.id} class="choice nested">
                  <input type="checkbox" disabled={wholeServices.has(service.id)} checked={wholeServices.has(service.id) || chosen.has(channel.id)}
                    onChange={() => setChosen(toggled(chosen, channel.id))} />
                  {channel.id}
                </label>
              ))}
            </div>
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
        <p class="field">
          <label for="token-expiry">When it stops working (optional)</label>
          <input id="token-expiry" type="date" value={expiry} aria-describedby="token-expiry-hint"
            onInput={(event) => setExpiry(event.currentTarget.value)} />
          <small id="token-expiry-hint">
            At the end of that day; empty, in 90 days. A token made here ends with this session at the latest
            {sessionEnds === null ? "" : ` (${day(sessionEnds)})`}: for one that lasts longer, use <code>gateway tokens create</code>.
          </small>
        </p>
        <button type="submit">Create the token</button>
      </form>
      {secret === undefined ? null : (
        <p role="status">
          The new token, shown this once (copy it now): <output class="secret" aria-label="The new token">{secret}</output>
        </p>
      )}
      <h2>Your tokens</h2>
      <p class="muted">
        Revoking a token also revokes every token it made, and those they made. Signing out ends this session alone: the tokens
        made with it keep working until they expire, no later than the session would have.
      </p>
      {tokens === undefined ? <p>Loading…</p> : (
        <ul class="tokens" aria-label="Tokens">
          {tokens.map((token) => (
            <li key={token.id}>
              <strong>{tokenName(token)}</strong>{" "}
              <span class="muted">{token.kind}, {token.status}{token.current ? ", this session" : ""}; {lifeInWords(token)}{creatorInWords(token, tokens)}</span>
              {token.status === "active" && !token.current
                ? <button type="button" aria-label={`Revoke ${tokenName(token)}`} onClick={() => void revoke(token.id)}>Revoke</button>
                : null}
            </li>
          ))}
        </ul>
      )}
    </main>
  )
}
