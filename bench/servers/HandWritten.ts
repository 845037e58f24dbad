import type { HandWrittenFixture } from "./HandWrittenFixture.ts"

/**
 * The work of the servers written by hand (Express, Fastify, an Effect program per request), said once so
 * that they differ only in the framework around it: a bearer token looked up in a Map, values in a Map,
 * the lists serialised from memory on each request. It checks just enough of a body to answer it: the
 * work of a hand-written server, not of a validated contract.
 */

/** An answer: a status and the JSON value of its body. */
export interface Answer {
  readonly status: number
  readonly json: unknown
}

/** What a hand-written server holds, read from its fixture. */
export interface HandWritten {
  /** Whether an `Authorization` header carries the one known token. */
  readonly admits: (authorization: string | undefined) => boolean
  readonly services: unknown
  readonly nodes: unknown
  /** Reads getters: `[{"id": …}]` → `{"getter": value}` (B), `[{"id": {"Exactly": …}}]` → `[["getter", {"Ok": value}]]` (A). */
  readonly read: (exactly: boolean, body: unknown) => Answer
  /** Writes setters (each sets the getter it drives): `{"select": …, "value": v}` → `{"setter": null}` (B), `{"set": […], "value": v}` → `[["setter", {"Ok": null}]]` (A). */
  readonly write: (exactly: boolean, body: unknown) => Answer
}

/** The one message a refused request is answered with: the three servers answer only valid requests under load. */
export const unauthorized: Answer = { status: 401, json: "a token is required" }

const field = (json: unknown, key: string): unknown => (typeof json === "object" && json !== null ? Reflect.get(json, key) : undefined)
const text = (json: unknown): string | undefined => (typeof json === "string" ? json : undefined)
/** The ids of selectors `{"id": ID}` (vocabulary B) or `{"id": {"Exactly": ID}}` (vocabulary A); `undefined` if one is neither. */
const ids = (selectors: unknown, exactly: boolean): ReadonlyArray<string> | undefined => {
  if (!Array.isArray(selectors)) return undefined
  const found: Array<string> = []
  for (const selector of selectors) {
    const id = text(exactly ? field(field(selector, "id"), "Exactly") : field(selector, "id"))
    if (id === undefined) return undefined
    found.push(id)
  }
  return found
}

export const handWritten = (fixture: HandWrittenFixture): HandWritten => {
  const tokens = new Map([[fixture.token, "admin"]])
  const values = new Map(Object.entries(fixture.values))
  const drives = new Map(Object.entries(fixture.drives))
  return {
    admits: (authorization) => {
      const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1]
      return token !== undefined && tokens.has(token)
    },
    services: fixture.services,
    nodes: fixture.nodes,
    read: (exactly, body) => {
      const getters = ids(body, exactly)
      if (getters === undefined) return { status: 400, json: "expected a list of selectors by id" }
      const unknown = getters.find((id) => !values.has(id))
      if (unknown !== undefined) return { status: 404, json: `no getter ${unknown}` }
      const json = exactly ? getters.map((id) => [id, { Ok: values.get(id) }]) : Object.fromEntries(getters.map((id) => [id, values.get(id)]))
      return { status: 200, json }
    },
    write: (exactly, body) => {
      const select = field(body, exactly ? "set" : "select")
      const setters = ids(Array.isArray(select) ? select : [select], exactly)
      const value = field(body, "value")
      if (setters === undefined || value === undefined) return { status: 400, json: "expected selectors by id and a value" }
      const unknown = setters.find((id) => !drives.has(id))
      if (unknown !== undefined) return { status: 404, json: `no setter ${unknown}` }
      for (const id of setters) values.set(drives.get(id) ?? id, value)
      return { status: 200, json: exactly ? setters.map((id) => [id, { Ok: null }]) : Object.fromEntries(setters.map((id) => [id, null])) }
    }
  }
}
