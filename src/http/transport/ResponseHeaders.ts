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

/** The security headers as Node's flat list (name, value, name, value…), made once: what most answers write first. */
const securityHeaderPairs: ReadonlyArray<OutgoingHttpHeader> = securityHeaderList.flat()

/** The position of each security header in `securityHeaderList`, by its name. */
const securityHeaderIndex = new Map(securityHeaderList.map(([name], index) => [name, index]))

/** The answer's headers as Node's flat list, and which security headers it names itself (a bit per `securityHeaderList`). */
const flatHeaders = (headers: OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined) => {
  const pairs: Array<OutgoingHttpHeader> = []
  let named = 0
  const add = (name: string, value: OutgoingHttpHeader | undefined) => {
    if (value === undefined) return
    const index = securityHeaderIndex.get(name.toLowerCase())
    if (index !== undefined) named |= 1 << index
    pairs.push(name, value)
  }
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) add(String(headers[i]), headers[i + 1])
  } else if (headers !== undefined) {
    for (const name of Object.keys(headers)) add(name, headers[name])
  }
  return { pairs, named }
}

/**
 * A Node response that writes the security headers with the others, in the one `writeHead` call that
 * writes them all (an answer's own header of the same name wins, as does one set before). Set one by one
 * when the request arrives, they made every response take Node's slow path, which sets each header of the
 * answer again one by one. Written as one flat list, the security headers' part made once, so that an
 * answer's head costs no object of its own. The gateway's server is made with it (`serverOptions`).
 */
export class SecuredResponse<Request extends IncomingMessage = IncomingMessage> extends http.ServerResponse<Request> {
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
    if (!setBefore && headers !== undefined && headers === lastHead.headers) return lastHead.list
    const { pairs, named } = flatHeaders(headers)
    if (named === 0 && !setBefore) {
      // The common case: the answer names none of them and nothing was set before.
      const list = securityHeaderPairs.concat(pairs)
      if (headers !== undefined) lastHead = { headers, list }
      return list
    }
    const all: Array<OutgoingHttpHeader> = []
    securityHeaderList.forEach(([name, value], index) => {
      if ((named & (1 << index)) === 0 && !this.hasHeader(name)) all.push(name, value)
    })
    return all.concat(pairs)
  }
}

/** The headers of the last answer written whose list needed nothing of its response, and that list. */
let lastHead: { readonly headers: object; readonly list: Array<OutgoingHttpHeader> } = { headers: {}, list: [] }

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
