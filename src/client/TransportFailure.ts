import { Transport, type TransportReason } from "./ClientError.ts"

/**
 * What a failed request tells of why, from the platform's error and its causes: Node names the failure
 * with a `code` (`ECONNREFUSED`, `ENOTFOUND`, a certificate's), `fetch` wraps it in a `TypeError`, and
 * refuses a GET with a body outright. The message says what happened and, where there is one, the fix.
 */

const reasons: ReadonlyArray<readonly [RegExp, TransportReason, string]> = [
  [
    /GET\/HEAD method cannot have body/,
    "GetBody",
    "this platform's fetch cannot send a GET with a body, as vocabulary A's reads with selectors are; " +
    "in Node, give the client `platform: nodePlatform` (home-gateway/client/node); in a browser, read without selectors"
  ],
  [/^ECONNREFUSED/m, "Refused", "the connection was refused (is the gateway running, at this address and port?)"],
  [/^(ENOTFOUND|EAI_AGAIN)/m, "NameNotFound", "the host's name was not found"],
  [/^\S*(CERT|SSL|TLS|EPROTO|SELF_SIGNED|UNABLE_TO_VERIFY)/m, "Tls", "TLS failed"]
]

/** The `Transport` error of a request (`GET http://…`) that failed with `error`. */
export const transportFailure = (request: string, error: unknown): Transport => {
  // The codes of the error and its causes, a line each, then the innermost message.
  let said = ""
  let detail = String(error)
  for (let at = error, depth = 0; typeof at === "object" && at !== null && depth < 8; depth++) {
    const { code, message, cause } = at as { code?: unknown; message?: unknown; cause?: unknown }
    said += `${code ?? ""}\n`
    detail = String(message)
    at = cause
  }
  const [, reason, why] = reasons.find(([pattern]) => pattern.test(`${said}${detail}`)) ?? [/$/, "Dropped", "the connection failed"] as const
  return new Transport({ reason, message: `${request}: ${why} (${detail})`, cause: error })
}
