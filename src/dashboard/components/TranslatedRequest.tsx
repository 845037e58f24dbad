import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { useMemo, useState } from "preact/hooks"
import { urlOf } from "../../client/Requests.ts"
import { parseJson } from "../../vocabulary/common/JsonText.ts"
import { operationNames } from "../../api/Translation.ts"
import { agreementInWords } from "../state/AnswerAgreement.ts"
import { exchange, type Exchanged } from "../api/Api.ts"
import { bodyHint } from "../text/BodyHint.ts"
import { Problem } from "./Field.tsx"
import { comparisonTokenFor, forgetComparisonToken } from "../state/ComparisonToken.ts"
import { type Outgoing, type RequestPair, requestPair } from "../state/RequestPair.ts"

/**
 * A vocabulary A request typed by the person, its vocabulary B equivalent computed here as they type
 * (the project's own translation), and both sent to the live gateway, their answers side by side with
 * whether they say the same.
 */

/** What became of one side's request. */
type Outcome =
  | { readonly _tag: "NotSent"; readonly why: string }
  | { readonly _tag: "Unreachable"; readonly message: string }
  | { readonly _tag: "Answered"; readonly route: string; readonly answer: Exchanged }

interface BothAnswers {
  readonly a: Outcome
  readonly b: Outcome
  readonly agreement: string
}

const routeInWords = (outgoing: Outgoing): string =>
  outgoing._tag === "Unsendable"
    ? `not sent from here: ${outgoing.why}`
    : `${outgoing.method} ${outgoing.path}${Object.keys(outgoing.query).length === 0 ? "" : `?${new URLSearchParams(outgoing.query)}`}`

/** Where the A request goes, or why it is not sent from here. */
const sentInA = (outgoing: Outgoing): string =>
  outgoing._tag === "Unsendable" ? `Not sent in vocabulary A from here: ${outgoing.why}` : `Sent in vocabulary A as ${routeInWords(outgoing)}`

/** An answer's body as a person reads it: JSON pretty-printed (read as the gateway reads JSON), anything else as it came. */
const pretty = (text: string): string =>
  text === "" ? "(no body)" : Result.match(parseJson(text), { onFailure: () => text, onSuccess: (json) => JSON.stringify(json, null, 2) })

const sent = async (token: string, outgoing: Outgoing): Promise<Outcome> => {
  if (outgoing._tag === "Unsendable") return { _tag: "NotSent", why: outgoing.why }
  const url = urlOf({ url: location.origin, token }, outgoing.path, outgoing.query)
  const answered = await exchange(token, {
    method: outgoing.method,
    url,
    ...Option.match(outgoing.body, { onNone: () => ({}), onSome: (body) => ({ body }) })
  })
  return answered.ok
    ? { _tag: "Answered", route: routeInWords(outgoing), answer: answered.value }
    : { _tag: "Unreachable", message: answered.message }
}

const unauthorized = (outcome: Outcome): boolean => outcome._tag === "Answered" && outcome.answer.status === 401

/** What became of both requests; or the session ended; or no comparison token was had, and why. */
type Comparison =
  | { readonly _tag: "Sent"; readonly a: Outcome; readonly b: Outcome }
  | { readonly _tag: "Expired" }
  | { readonly _tag: "NoToken"; readonly message: string }

/**
 * Both requests sent with the page's comparison token, A's first (the second sees what the first did).
 * A token refused before anything was done (revoked by a newer one, another tab's) is asked for anew, once.
 */
const compared = async (session: string, pair: RequestPair, retry = true): Promise<Comparison> => {
  const token = await comparisonTokenFor(session)
  if (!token.ok) return token.status === 401 ? { _tag: "Expired" } : { _tag: "NoToken", message: token.message }
  const again = () => {
    forgetComparisonToken()
    return compared(session, pair, false)
  }
  const a = await sent(token.value, pair.a)
  if (retry && unauthorized(a)) return again()
  const b = await sent(token.value, pair.b)
  if (retry && a._tag !== "Answered" && unauthorized(b)) return again()
  return [a, b].some(unauthorized) ? { _tag: "Expired" } : { _tag: "Sent", a, b }
}

const AnswerShown = (props: { readonly id: string; readonly title: string; readonly outcome: Outcome }) => (
  <section class="answer" aria-labelledby={`${props.id}-title`}>
    <h4 id={`${props.id}-title`}>{props.title}</h4>
    {props.outcome._tag === "NotSent" ? <p>Not sent: {props.outcome.why}</p> : props.outcome._tag === "Unreachable"
      ? <Problem message={props.outcome.message} />
      : (
        <>
          <p>
            <code>{props.outcome.route}</code>: <strong id={`${props.id}-status`}>{props.outcome.answer.status} {props.outcome.answer.statusText}</strong>
          </p>
          <pre id={props.id}>{pretty(props.outcome.answer.text)}</pre>
        </>
      )}
  </section>
)

export const TranslatedRequest = (props: { readonly token: string; readonly onExpired: () => void }) => {
  const [operation, setOperation] = useState("get_channel_value")
  const [body, setBody] = useState("")
  const [answers, setAnswers] = useState<BothAnswers | undefined>(undefined)
  const [sending, setSending] = useState(false)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const pair = useMemo(() => requestPair(operation, body), [operation, body])
  const sendBoth = async (event: SubmitEvent) => {
    event.preventDefault()
    if (Result.isFailure(pair)) return
    setSending(true)
    const comparison = await compared(props.token, pair.success)
    setSending(false)
    if (comparison._tag === "Expired") return props.onExpired()
    if (comparison._tag === "NoToken") return setProblem(`Not sent: the page's comparison token was refused (${comparison.message}).`)
    setProblem(undefined)
    const { a, b } = comparison
    const agreement = a._tag === "Answered" && b._tag === "Answered"
      ? agreementInWords(operation, a.answer, b.answer)
      : "Nothing to compare: not both requests were answered."
    setAnswers({ a, b, agreement })
  }
  const edited = <A,>(set: (value: A) => void) => (value: A) => {
    set(value)
    setAnswers(undefined)
  }
  return (
    <form class="wide" onSubmit={sendBoth} aria-labelledby="a-request">
      <h2 id="a-request">A request in vocabulary A, and in vocabulary B</h2>
      <p class="field">
        <label for="a-operation">Vocabulary A operation</label>
        <select id="a-operation" value={operation} onChange={(event) => edited(setOperation)(event.currentTarget.value)}>
          {Object.keys(operationNames).map((name) => <option key={name} value={name}>{name}</option>)}
        </select>
        {Result.isSuccess(pair) ? <small>{sentInA(pair.success.a)}</small> : null}
      </p>
      <p class="field">
        <label for="a-body">Its JSON body, in vocabulary A</label>
        <textarea
          id="a-body"
          rows={6}
          spellcheck={false}
          value={body}
          aria-invalid={Result.isFailure(pair)}
          aria-describedby={Result.isFailure(pair) ? "a-body-hint translation-problem" : "a-body-hint"}
          onInput={(event) => edited(setBody)(event.currentTarget.value)}
        />
        <small id="a-body-hint">{bodyHint(operation)} The B equivalent below follows as you type.</small>
      </p>
      <h3>In vocabulary B</h3>
      {Result.match(pair, {
        onFailure: (problem) => <p class="problem" id="translation-problem">{problem}</p>,
        onSuccess: ({ b, translation }) => (
          <dl class="request">
            <dt>Operation</dt>
            <dd id="b-operation">{translation.operation}</dd>
            <dt>Method and path</dt>
            <dd>
              <code id="b-route">{translation.method} {translation.path}</code>
              {b._tag === "Sendable" && b.method !== translation.method ? ` (a browser sends it as ${b.method})` : null}
            </dd>
            <dt>Body</dt>
            <dd>{translation.body === undefined ? "none: a read of everything" : <pre id="b-body">{JSON.stringify(translation.body, null, 2)}</pre>}</dd>
          </dl>
        )
      })}
      <p id="send-note" class="muted">
        Both requests go to the live gateway, A's first, with this page's own token (yours, for a day), so that they are not
        counted among the callers of vocabulary A below: a write or a tag change is really made, twice.
      </p>
      <button type="submit" aria-describedby="send-note" disabled={Result.isFailure(pair) || sending}>Send both</button>
      <Problem message={problem} />
      {answers === undefined ? null : (
        <>
          <h3>The answers</h3>
          <div class="answers">
            <AnswerShown id="a-answer" title="Vocabulary A's answer" outcome={answers.a} />
            <AnswerShown id="b-answer" title="Vocabulary B's answer" outcome={answers.b} />
          </div>
        </>
      )}
      <p id="agreement" role="status">{answers?.agreement}</p>
    </form>
  )
}
