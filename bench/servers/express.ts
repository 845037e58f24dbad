import express, { type NextFunction, type Request, type Response } from "express"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import { listenOnLoopback } from "../http/BareServer.ts"
import { decodeExpressFixture } from "./ExpressFixture.ts"

/**
 * What the gateway is compared with besides bare Node: the same requests answered by a minimal Express
 * server written by hand, the way WebThings Gateway is built: `node express.js FIXTURE` (see
 * ExpressFixture). Express's JSON body parser, a bearer token looked up in a Map, values in a Map, the
 * lists serialised from memory on each request. It checks just enough of a body to answer it: the
 * work of a hand-written server, not of a validated contract.
 */
const fixture = decodeExpressFixture(readFileSync(process.argv[2] ?? "", "utf8"))
const tokens = new Map([[fixture.token, "admin"]])
const values = new Map(Object.entries(fixture.values))
const drives = new Map(Object.entries(fixture.drives))

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

const refuse = (response: Response, status: number, message: string): void => {
  response.status(status).json(message)
}

const app = express()
app.use(express.json())
app.use("/api/v1", (request: Request, response: Response, next: NextFunction) => {
  const token = /^Bearer\s+(\S+)$/i.exec(request.get("authorization") ?? "")?.[1]
  if (token === undefined || !tokens.has(token)) return refuse(response, 401, "a token is required")
  next()
})
app.get("/health", (_request, response) => {
  response.json({ status: "ok" })
})
app.get("/api/v1/services", (_request, response) => {
  response.json(fixture.services)
})
app.get("/api/v1/nodes", (_request, response) => {
  response.json(fixture.nodes)
})
/** Reads getters: `[{"id": …}]` → `{"getter": value}` (B), `[{"id": {"Exactly": …}}]` → `[["getter", {"Ok": value}]]` (A). */
const read = (exactly: boolean) => (request: Request, response: Response) => {
  const getters = ids(request.body, exactly)
  if (getters === undefined) return refuse(response, 400, "expected a list of selectors by id")
  const unknown = getters.find((id) => !values.has(id))
  if (unknown !== undefined) return refuse(response, 404, `no getter ${unknown}`)
  response.json(exactly ? getters.map((id) => [id, { Ok: values.get(id) }]) : Object.fromEntries(getters.map((id) => [id, values.get(id)])))
}
/** Writes setters (each sets the getter it drives): `{"select": …, "value": v}` → `{"setter": null}` (B), `{"set": […], "value": v}` → `[["setter", {"Ok": null}]]` (A). */
const write = (exactly: boolean) => (request: Request, response: Response) => {
  const select = field(request.body, exactly ? "set" : "select")
  const setters = ids(Array.isArray(select) ? select : [select], exactly)
  const value = field(request.body, "value")
  if (setters === undefined || value === undefined) return refuse(response, 400, "expected selectors by id and a value")
  const unknown = setters.find((id) => !drives.has(id))
  if (unknown !== undefined) return refuse(response, 404, `no setter ${unknown}`)
  for (const id of setters) values.set(drives.get(id) ?? id, value)
  response.json(exactly ? setters.map((id) => [id, { Ok: null }]) : Object.fromEntries(setters.map((id) => [id, null])))
}
app.put("/api/v1/channels/get", read(false))
app.get("/api/v1/channels/value", read(true))
app.put("/api/v1/channels/set", write(false))
app.post("/api/v1/channels/value", write(true))

listenOnLoopback(createServer(app))
