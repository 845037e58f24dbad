import * as Schema from "effect/Schema"
import { type SetupBodyJson, SessionTokenJson, SetupStatusJson } from "../api/Users.ts"

/**
 * The few calls the dashboard makes outside the typed client: whether setup is needed, setup, login and
 * logout (docs/reference.md §6.7, §8), their answers checked with the routes' own schemas (src/api/Users.ts).
 * An answer that is not a success carries the gateway's own sentence, shown to the person as it is.
 */

export type Answer<A> =
  | { readonly ok: true; readonly value: A }
  | { readonly ok: false; readonly message: string }

/** The gateway's sentence of a refused request: its JSON string body, or the status when it has none. */
const refusal = async (response: Response): Promise<string> => {
  const text = await response.text()
  try {
    const message: unknown = JSON.parse(text)
    if (typeof message === "string") return message
  } catch {
    // Not JSON: a proxy's page, say; its status says more than its text.
  }
  return `the gateway answered ${response.status} ${response.statusText}`
}

const call = async <A>(path: string, init: RequestInit, read: (json: unknown) => A | undefined): Promise<Answer<A>> => {
  let response: Response
  try {
    response = await fetch(path, init)
  } catch {
    return { ok: false, message: "the gateway cannot be reached" }
  }
  if (!response.ok) return { ok: false, message: await refusal(response) }
  if (response.status === 204) {
    const value = read(undefined)
    return value === undefined ? { ok: false, message: "unexpected answer" } : { ok: true, value }
  }
  const value = read(await response.json())
  return value === undefined ? { ok: false, message: "the gateway's answer was not understood" } : { ok: true, value }
}

const sessionToken = (json: unknown): string | undefined => (Schema.is(SessionTokenJson)(json) ? json.session_token : undefined)

export const setupNeeded = (): Promise<Answer<boolean>> =>
  call("/users/setup", {}, (json) => (Schema.is(SetupStatusJson)(json) ? json.needed : undefined))

/** The first user, as `POST /users/setup` takes it. */
export type FirstUser = typeof SetupBodyJson.Type

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
