import type { Right } from "../domain/Access.ts"

/**
 * Who may call a route, said on its endpoint (src/api/Endpoint.ts): the server's authentication, the
 * OpenAPI document's security and the client's requests all read it. What a token then reaches within the
 * right (its scope's channels, the tags it may add) is the core's rule (src/gateway/ScopedCalls.ts), which
 * checks the right again.
 */
export type Access =
  /** Anyone, without a token. */
  | { readonly _tag: "Open" }
  /** A valid token, whatever its rights. */
  | { readonly _tag: "Token" }
  /** A valid token granting `right` (an unscoped token grants every right). */
  | { readonly _tag: "Right"; readonly right: Right }
  /**
   * A token granting `right`, or no token from the machine itself when the gateway runs with
   * `--metrics-open-on-loopback` and no proxy header says the request is relayed.
   */
  | { readonly _tag: "RightOrLoopback"; readonly right: Right }

export const open: Access = { _tag: "Open" }

export const anyToken: Access = { _tag: "Token" }

export const tokenWith = (right: Right): Access => ({ _tag: "Right", right })

export const tokenWithOrLoopback = (right: Right): Access => ({ _tag: "RightOrLoopback", right })

/** The right a route's access names, if it names one. */
export const rightOf = (access: Access): Right | undefined =>
  access._tag === "Right" || access._tag === "RightOrLoopback" ? access.right : undefined
