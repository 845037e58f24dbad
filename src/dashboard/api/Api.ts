import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { defaultTokenPage, tokens, type TokenView } from "../../api/Tokens.ts"
import { type NewUserJson, SessionTokenJson, SetupStatusJson } from "../../api/Users.ts"
import { parseJson } from "../../vocabulary/common/JsonText.ts"

/**
 * The few calls the dashboard makes outside the typed client: whether setup is needed, setup, login and
 * logout (docs/reference.md §6.7, §8), the token listing by pages, and the comparison token of the migration page
 * (which does not carry the client), their answers checked with the routes' own schemas (src/api/Users.ts, src/api/Tokens.ts).
 * An answer that is not a success carries the gateway's own sentence, shown to the person as it is.
 */

export type Answer<A> =
  | { readonly ok: true; readonly value: A }
  | { readonly ok: false; readonly message: string; readonly status?: number }

/** An answer as it came: its status and its body's text. */
export interface Exchanged {
  readonly status: number
  readonly statusText: string
  readonly text: string
}

/** The gateway's sentence of a refused request: its JSON string body, or the status when it has none. */
export const refusalInWords = (answer: Exchanged): string => {
  const message = parseJson(answer.text)
  // Not a JSON string (a proxy's page, say): its status says more than its text.
  return Result.isSuccess(message) && typeof message.success === "string"
    ? message.success
    : `the gateway answered ${answer.status} ${answer.statusText}`
}

const refusal = async (response: Response): Promise<string> =>
  refusalInWords({ status: response.status, statusText: response.statusText, text: await response.text() })

const unreachable = "the gateway cannot be reached"

const call = async <A>(path: string, init: RequestInit, read: (json: unknown) => A | undefined): Promise<Answer<A>> => {
  let response: Response
  try {
    response = await fetch(path, init)
  } catch {
    return { ok: false, message: unreachable }
  }
  if (!response.ok) return { ok: false, message: await refusal(response), status: response.status }
  if (response.status === 204) {
    const value = read(undefined)
    return value === undefined ? { ok: false, message: "unexpected answer" } : { ok: true, value }
  }
  const json = parseJson(await response.text())
  const value = Result.isSuccess(json) ? read(json.success) : undefined
  return value === undefined ? { ok: false, message: "the gateway's answer was not understood" } : { ok: true, value }
}

const sessionToken = (json: unknown): string | undefined => (Schema.is(SessionTokenJson)(json) ? json.session_token : undefined)

export const setupNeeded = (): Promise<Answer<boolean>> =>
  call("/users/setup", {}, (json) => (Schema.is(SetupStatusJson)(json) ? json.needed : undefined))

/** The first user, as `POST /users/setup` takes it. */
export type FirstUser = typeof NewUserJson.wire.Type

export const setup = (user: FirstUser): Promise<Answer<string>> =>
  call("/users/setup", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(user) }, sessionToken)

/** Basic credentials: the username and password as UTF-8, in base64. */
const basic = (username: string, password: string): string => {
  const bytes = new TextEncoder().encode(`${username}:${password}`)
  return `Basic ${btoa(String.fromCharCode(...bytes))}`
}

export const login = (username: string, password: string): Promise<Answer<string>> =>
  call("/users/login", { method: "POST", headers: { authorization: basic(username, password) } }, sessionToken)

export const logout = (token: string): Promise<Answer<true>> =>
  call("/users/logout", { method: "POST", headers: { authorization: `Bearer ${token}` } }, () => true)

const tokenListing = tokens.list_tokens.answer.shape

/** A page of the tokens the session's token manages (`GET /api/v1/tokens`): at most `limit`, those whose id is above `after`. */
export const tokenPage = (token: string, after: number, limit = defaultTokenPage): Promise<Answer<ReadonlyArray<TokenView>>> =>
  call(`/api/v1/tokens?limit=${limit}&after=${after}`, { headers: { authorization: `Bearer ${token}` } }, (json) =>
    Schema.is(tokenListing.wire)(json) ? tokenListing.read(json) : undefined)

/** The tokens the session's token manages whose id is above `after`, page after page until one comes short. */
export const listTokens = async (token: string, after = 0): Promise<Answer<ReadonlyArray<TokenView>>> => {
  const listed: Array<TokenView> = []
  for (;;) {
    const page = await tokenPage(token, listed.at(-1)?.id ?? after)
    if (!page.ok) return page
    listed.push(...page.value)
    if (page.value.length < defaultTokenPage) return { ok: true, value: listed }
  }
}

const comparisonAnswer = tokens.create_comparison_token.answer.shape

/** The comparison token of the session's user (`POST /api/v1/tokens/comparison`): a new one, replacing the user's last. */
export const comparisonToken = (session: string): Promise<Answer<{ readonly secret: string; readonly expiresAt: number | null }>> =>
  call("/api/v1/tokens/comparison", { method: "POST", headers: { authorization: `Bearer ${session}` } }, (json) => {
    if (!Schema.is(comparisonAnswer.wire)(json)) return undefined
    const created = comparisonAnswer.read(json)
    return { secret: created.secret, expiresAt: created.token.expiresAt }
  })

/**
 * A request sent with the session's token as it is, its answer given back as it came, whatever its
 * status: for the pages that show the gateway's answers themselves. `body` absent: no body.
 */
export const exchange = async (
  token: string,
  request: { readonly method: string; readonly url: string; readonly body?: unknown }
): Promise<Answer<Exchanged>> => {
  const headers = { authorization: `Bearer ${token}`, ...(request.body === undefined ? {} : { "content-type": "application/json" }) }
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers,
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) })
    })
    return { ok: true, value: { status: response.status, statusText: response.statusText, text: await response.text() } }
  } catch {
    return { ok: false, message: unreachable }
  }
}
