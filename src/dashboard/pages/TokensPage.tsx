import { useEffect, useMemo, useState } from "preact/hooks"
import * as Result from "effect/Result"
import { createClient, type NewToken, type TokenView } from "../../client/index.ts"
import { type Answer, listTokens, tokenPage } from "../api/Api.ts"
import { type Device, listDevices } from "../api/Devices.ts"
import { Problem } from "../components/Field.tsx"
import { NewTokenForm } from "../components/NewTokenForm.tsx"
import { RevokeConfirmation } from "../components/RevokeConfirmation.tsx"
import { TokenEntry } from "../components/TokenEntry.tsx"
import { madeBy } from "../text/TokenWords.ts"
import { failureInWords, sessionEnded } from "../text/Words.ts"
import type { PageProps } from "./SignedInPage.tsx"

/** Tokens shown at first, and added by each "Show more". */
const perPage = 20

interface Listed {
  readonly tokens: ReadonlyArray<TokenView>
  /** Whether the gateway may hold more than those: the last page read was full. */
  readonly more: boolean
}

/** The token being revoked, and what goes with it (`undefined` while it is looked up). */
interface Revoking {
  readonly token: TokenView
  readonly also: ReadonlyArray<TokenView> | undefined
}

/**
 * The tokens of the signed-in user (as many as this session's token manages), a page at a time: each
 * with what it reaches and may do and who made it, revoked after a confirmation that says what goes
 * with it; then the form that creates one (its secret shown once).
 */
export const TokensPage = (props: PageProps) => {
  const client = useMemo(() => createClient({ url: location.origin, token: props.token, vocabulary: "b" }), [props.token])
  const [listed, setListed] = useState<Listed | undefined>(undefined)
  const [services, setServices] = useState<ReadonlyArray<Device>>([])
  const [secret, setSecret] = useState<string | undefined>(undefined)
  const [revoking, setRevoking] = useState<Revoking | undefined>(undefined)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const failed = (error: unknown) => (sessionEnded(error) ? props.onExpired() : setProblem(failureInWords(error)))
  const answered = <A,>(answer: Answer<A>, then: (value: A) => void) => {
    if (answer.ok) return then(answer.value)
    if (answer.status === 401) return props.onExpired()
    setProblem(answer.message)
  }
  /** The first `count` tokens again (those shown), after a change: in one page. */
  const reload = async (count = listed?.tokens.length ?? 0) => {
    const limit = Math.max(count, perPage)
    answered(await tokenPage(props.token, 0, limit), (tokens) => setListed({ tokens, more: tokens.length === limit }))
  }
  const showMore = async () => {
    const shown = listed?.tokens ?? []
    answered(await tokenPage(props.token, shown.at(-1)?.id ?? 0, perPage), (tokens) =>
      setListed({ tokens: [...shown, ...tokens], more: tokens.length === perPage }))
  }
  useEffect(() => {
    void reload(perPage)
    // The devices in summary, as the home page reads them: the client's reading of every field is slow on a large home.
    void listDevices(props.token).then((read) => (Result.isSuccess(read) ? setServices(read.success) : failed(read.failure)))
    return () => void client.close()
  }, [client])
  // Those it made have later ids: the tokens after it, all of them, whether shown yet or not.
  const askToRevoke = async (token: TokenView) => {
    setRevoking({ token, also: undefined })
    answered(await listTokens(props.token, token.id), (after) => setRevoking({ token, also: madeBy(token, after) }))
  }
  const revoke = async (token: TokenView) => {
    setRevoking(undefined)
    try {
      await client.revokeToken(token.id)
      setProblem(undefined)
      await reload()
    } catch (error) {
      failed(error)
    }
  }
  const create = async (token: NewToken) => {
    try {
      const created = await client.createToken(token)
      setSecret(created.secret)
      setProblem(undefined)
      await reload((listed?.tokens.length ?? 0) + 1)
    } catch (error) {
      failed(error)
    }
  }
  const tokens = listed?.tokens ?? []
  const sessionEnds = tokens.find((token) => token.current)?.expiresAt ?? null
  return (
    <main>
      <h1>Tokens</h1>
      <Problem message={problem} />
      <section aria-labelledby="your-tokens">
        <h2 id="your-tokens">Your tokens</h2>
        <p class="muted">
          Sessions are the browsers and apps you signed in with; API tokens are made for a program. Revoking a token also
          revokes every token it made, and those they made. Signing out ends this browser's session alone.
        </p>
        {listed === undefined ? <p>Loading…</p> : (
          <ul class="tokens" aria-label="Tokens">
            {tokens.map((token) => (
              <TokenEntry key={token.id} token={token} tokens={tokens} services={services} onRevoke={(t) => void askToRevoke(t)} />
            ))}
          </ul>
        )}
        {listed?.more === true ? <button type="button" class="quiet" onClick={() => void showMore()}>Show more tokens</button> : null}
      </section>
      {revoking === undefined ? null : (
        <RevokeConfirmation token={revoking.token} also={revoking.also}
          onConfirm={() => void revoke(revoking.token)} onCancel={() => setRevoking(undefined)} />
      )}
      <NewTokenForm services={services} sessionEnds={sessionEnds} create={create} onProblem={setProblem} />
      {secret === undefined ? null : (
        <p role="status">
          The new token, shown this once (copy it now): <output class="secret" aria-label="The new token">{secret}</output>
        </p>
      )}
    </main>
  )
}
