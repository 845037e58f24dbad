import { useEffect, useRef, useState } from "preact/hooks"
import type { TokenView } from "../../api/Tokens.ts"
import { exchange, listTokens, refusalInWords } from "../api/Api.ts"
import { Problem } from "./Field.tsx"
import { type VocabularyACalls, vocabularyACalls } from "../api/VocabularyACalls.ts"

/**
 * Who still calls vocabulary A: its calls by token id since the gateway started, from `GET /metrics`
 * (the `metrics` right), each token named by the session's own token listing where it knows it. The metric
 * gives a series of its own to the first tokens that call (docs/configuration.md), and counts later ones as `other`.
 */

const tokenInWords = (token: TokenView | undefined): string => {
  if (token === undefined) return "another user's token"
  const kind = token.kind === "api" ? "an API token" : "a session"
  const status = token.status === "active" ? "" : `, ${token.status}`
  return `${token.label === "" ? "no label" : token.label}: ${kind}${token.current ? " (this one)" : ""}${status}`
}

/** How many tokens call A: the `other` row stands for one or more. */
const callersInWords = (calls: ReadonlyArray<VocabularyACalls>): string => {
  const named = calls.filter(({ token }) => token !== "other").length
  const more = named < calls.length
  const one = named === 1 && !more
  return `${named} ${one ? "token" : "tokens"}${more ? " and more" : ""} ${one ? "calls" : "call"} vocabulary A.`
}

export const VocabularyAUsers = (props: { readonly token: string; readonly onExpired: () => void }) => {
  const [calls, setCalls] = useState<ReadonlyArray<VocabularyACalls> | undefined>(undefined)
  const [tokens, setTokens] = useState<ReadonlyMap<number, TokenView>>(new Map())
  const [readAt, setReadAt] = useState<Date | undefined>(undefined)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  // Only the latest reading is shown: an earlier one that answers later (a slow first load, then Refresh) is dropped.
  const latest = useRef(0)
  const refresh = () => {
    const reading = ++latest.current
    setProblem(undefined)
    void listTokens(props.token).then((listed) => {
      if (reading !== latest.current) return
      if (listed.ok) setTokens(new Map(listed.value.map((token) => [token.id, token])))
      else setProblem(`The tokens cannot be named: ${listed.message}`)
    })
    void exchange(props.token, { method: "GET", url: "/metrics" }).then((answered) => {
      if (reading !== latest.current) return
      if (!answered.ok) return setProblem(answered.message)
      if (answered.value.status === 401) return props.onExpired()
      if (answered.value.status !== 200) return setProblem(`The calls cannot be shown: ${refusalInWords(answered.value)}.`)
      setCalls(vocabularyACalls(answered.value.text))
      setReadAt(new Date())
    })
  }
  useEffect(refresh, [props.token])
  return (
    <section aria-labelledby="a-users">
      <h2 id="a-users">Who still calls vocabulary A</h2>
      <p>
        The requests and watch sockets in vocabulary A since the gateway started, by the token that made them
        (<code>gateway_vocabulary_a_calls_total</code> in <code>/metrics</code>, which needs the <code>metrics</code> right).
      </p>
      <button type="button" onClick={refresh}>Refresh</button>
      <Problem message={problem} />
      <p role="status">
        {readAt === undefined || calls === undefined ? "" : `Read at ${readAt.toLocaleTimeString()}: ${
          calls.length === 0 ? "no token has called vocabulary A." : callersInWords(calls)
        }`}
      </p>
      {calls === undefined || calls.length === 0 ? null : (
        <table class="a-users">
          <caption>Vocabulary A calls by token, most first</caption>
          <thead>
            <tr><th scope="col">Token</th><th scope="col">Which</th><th scope="col">Calls</th></tr>
          </thead>
          <tbody>
            {calls.map(({ calls, token }) => (
              <tr key={token}>
                <th scope="row">{token}</th>
                <td>{token === "other" ? "tokens seen after those with a row of their own, together" : tokenInWords(tokens.get(token))}</td>
                <td>{calls}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
