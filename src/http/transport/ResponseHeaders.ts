import { HttpServerResponse } from "effect/http"
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders, Server, ServerResponse } from "node:http"
import { http } from "./NodeHttp.ts"

/**
 * Headers on every response. The API serves JSON only: nothing may be framed, sniffed as another
 * type, cached by a shared cache (answers hold a home's state), or leak the URL (which may carry `?auth=`).
 */
export const securityHeaders: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store"
}

const securityHeaderList = Object.entries(securityHeaders)

/** The security headers as Node's flat list (name, value, name, value…): what most answers write first. */
const securityHeaderPairs: ReadonlyArray<string> = securityHeaderList.flat()

/** The position of each security header in `securityHeaderList`, by its name. */
const securityHeaderIndex = new Map(securityHeaderList.map(([name], index) => [name, index]))

/** Which security headers `headers` names itself: a bit per `securityHeaderList`. */
const securityNamed = (headers: OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined): number => {
  let named = 0
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) named |= securityBit(String(headers[i]))
  } else if (headers !== undefined) {
    // `for…in`, not `Object.keys`: no array per answer (an Effect answer's headers inherit no enumerable name).
    for (const name in headers) if (Object.hasOwn(headers, name)) named |= securityBit(name)
  }
  return named
}

const securityBit = (name: string): number => {
  const index = securityHeaderIndex.get(name.toLowerCase())
  return index === undefined ? 0 : 1 << index
}

/** `headers` added to Node's flat list `list` (name, value, name, value…), those without a value left out. */
const appendFlat = (list: Array<OutgoingHttpHeader>, headers: OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined): Array<OutgoingHttpHeader> => {
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) {
      const value = headers[i + 1]
      if (value !== undefined) list.push(String(headers[i]), value)
    }
  } else if (headers !== undefined) {
    for (const name in headers) {
      const value = headers[name]
      if (value !== undefined && Object.hasOwn(headers, name)) list.push(name, value)
    }
  }
  return list
}

/** What Node's server gives each response it makes, beside its request (the socket's high-water mark, …). */
type NodeResponseOptions = Readonly<Record<string, unknown>>

/** Node's response, with the options its server passes, which Node's types leave out. */
const NodeResponse:
  & typeof http.ServerResponse
  & (new<Request extends IncomingMessage>(request: Request, options?: NodeResponseOptions) => ServerResponse<Request>) = http.ServerResponse

/**
 * A Node response that writes the security headers with the others, in the one `writeHead` call that
 * writes them all (an answer's own header of the same name wins, as does one set before). Set one by one
 * when the request arrives, they made every response take Node's slow path, which sets each header of the
 * answer again one by one. Written as one flat list, made as one array with no object of its own, so that
 * an answer's head costs Node's writing and little else. The gateway's server is made with it (`serverOptions`).
 */
export class SecuredResponse<Request extends IncomingMessage = IncomingMessage> extends NodeResponse<Request> {
  // Written out: the implicit constructor passes its arguments on as a list, about 45 ns more per response.
  constructor(request: Request, options?: NodeResponseOptions) {
    super(request, options)
  }

  override writeHead(
    statusCode: number,
    reason?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
    headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]
  ): this {
    return typeof reason === "string"
      ? super.writeHead(statusCode, reason, this.secured(headers))
      : super.writeHead(statusCode, this.secured(headers ?? reason))
  }

  private secured(headers: OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined): Array<OutgoingHttpHeader> {
    const setBefore = this.getHeaderNames().length !== 0
    // The same answer as the last one (/health, an unchanged listing: the same response, so the same
    // headers) writes the list made for it: Node reads it and keeps nothing of it.
    if (!setBefore && headers !== undefined && headers === lastHeaders) return lastList
    const named = securityNamed(headers)
    const list: Array<OutgoingHttpHeader> = []
    for (let index = 0; 2 * index + 1 < securityHeaderPairs.length; index++) {
      const name = securityHeaderPairs[2 * index]
      const value = securityHeaderPairs[2 * index + 1]
      if (name === undefined || value === undefined || (named & (1 << index)) !== 0) continue
      if (!setBefore || !this.hasHeader(name)) list.push(name, value)
    }
    appendFlat(list, headers)
    if (named === 0 && !setBefore && headers !== undefined) {
      lastHeaders = headers
      lastList = list
    }
    return list
  }
}

/** The headers of the last answer written whose list needed nothing of its response, and that list. */
let lastHeaders: object | undefined
let lastList: Array<OutgoingHttpHeader> = []

/**
 * The security headers on every response of `server` (its `request` listener): a server made with
 * SecuredResponse writes them itself, which its first response tells, and the listener then leaves.
 * Any other server's responses have them set when the request arrives, merged by Node into the headers
 * the app writes.
 */
export const securing = (server: Server) => {
  const listener = (_request: IncomingMessage, response: ServerResponse): void => {
    if (response instanceof SecuredResponse) {
      server.off("request", listener)
      return
    }
    for (const [name, value] of securityHeaderList) response.setHeader(name, value)
  }
  return listener
}

/** What a browser may send cross-origin: the API's methods and the two headers it reads. */
const preflightHeaders = {
  "access-control-allow-methods": "GET, POST, PUT, DELETE",
  "access-control-allow-headers": "authorization, content-type",
  "access-control-max-age": "600"
}

/** What CORS adds to the answer of a request from an origin it names: the headers, or the preflight's answer itself. */
export interface CorsAnswer {
  readonly headers: Readonly<Record<string, string>>
  readonly preflight: HttpServerResponse.HttpServerResponse | undefined
}

/**
 * CORS (`--cors-origin`): closed unless origins are named. For a named origin, a preflight `OPTIONS`
 * is answered 204 (before authentication: browsers send no credentials on it) and every answer carries
 * `Access-Control-Allow-Origin` for it. No cookies are involved (tokens travel in a header), so
 * credentials are not allowed. Other origins get no CORS header, and their `OPTIONS` the usual 405.
 */
export const corsOf = (origins: ReadonlyArray<string>): (method: string, headers: IncomingHttpHeaders) => CorsAnswer | undefined => {
  if (origins.length === 0) return () => undefined
  const allowed = new Set(origins)
  return (method, headers) => {
    const origin = headers["origin"]
    if (origin === undefined || !allowed.has(origin)) return undefined
    const cors = { "access-control-allow-origin": origin, vary: "Origin", "access-control-expose-headers": "retry-after, www-authenticate" }
    const preflight = method === "OPTIONS" && headers["access-control-request-method"] !== undefined
      ? HttpServerResponse.empty({ status: 204, headers: { ...cors, ...preflightHeaders } })
      : undefined
    return { headers: cors, preflight }
  }
}
