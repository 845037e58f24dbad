import { Transport, type TransportReason } from "./ClientError.ts"

/**
 * What a failed request tells of why, from the platform's error and its causes: Node names the failure
 * with a `code` (`ECONNREFUSED`, `ENOTFOUND`, a certificate's), `fetch` wraps it in a `TypeError`, and
 * refuses a GET with a body outright. The message says what happened and, where there is one, the fix.
 */

const codeReasons: ReadonlyArray<readonly [RegExp, TransportReason]> = [
  [/^ECONNREFUSED$/, "Refused"],
  [/^(ENOTFOUND|EAI_AGAIN)$/, "NameNotFound"],
  [/CERT|SSL|TLS|EPROTO|UNABLE_TO_VERIFY|SELF_SIGNED/, "Tls"]
]

/** The error and its causes, outermost first. */
const causes = (error: unknown): ReadonlyArray<{ readonly code?: unknown; readonly message?: unknown }> => {
  const chain = []
  for (let at = error; typeof at === "object" && at !== null && chain.length < 8; at = (at as { cause?: unknown }).cause) chain.push(at)
  return chain
}

const told: { readonly [R in TransportReason]?: (request: string, detail: string) => string } = {
  Refused: (request) => `${request}: the connection was refused (is the gateway running, at this address and port?)`,
  NameNotFound: (request, detail) => `${request}: the host's name was not found (${detail})`,
  Tls: (request, detail) => `${request}: TLS failed (${detail})`,
  GetBody: (request) =>
    `${request}: this platform's fetch cannot send a GET with a body, as vocabulary A's reads with selectors are; ` +
    "in Node, give the client `platform: nodePlatform` (home-gateway/client/node); in a browser, read without selectors"
}

/** The `Transport` error of a request (`GET http://…`) that failed with `error`. */
export const transportFailure = (request: string, error: unknown): Transport => {
  const chain = causes(error)
  const code = chain.map((e) => String(e.code ?? "")).find((c) => c !== "") ?? ""
  const detail = String(chain.at(-1)?.message ?? error)
  const reason = /GET\/HEAD method cannot have body/.test(detail)
    ? "GetBody"
    : codeReasons.find(([pattern]) => pattern.test(code))?.[1] ?? "Dropped"
  const message = told[reason]?.(request, detail) ?? `${request}: the connection failed (${detail})`
  return new Transport({ reason, message, cause: error })
}
