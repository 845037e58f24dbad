import * as Context from "effect/Context"
import * as Option from "effect/Option"
import { bearerProtocolPrefix, watchProtocol } from "../api/Watching.ts"

/**
 * Whether the platform's WebSocket can send handshake headers: Node's can (`@home-gateway/client/node`
 * says so), a browser's cannot. Without them the token goes as the subprotocol `bearer.<token>`, not in
 * the URL, where a proxy's access log would record it.
 */
export const HandshakeHeaders = Context.Reference<boolean>("home-gateway/HandshakeHeaders", { defaultValue: () => false })

/** What the watch socket's handshake carries: the watch subprotocol, and the token as the platform can send it. */
export const watchHandshake = (token: Option.Option<string>, headers: boolean): {
  readonly protocols: Array<string>
  readonly headers?: Readonly<Record<string, string>>
} =>
  Option.match(token, {
    onNone: () => ({ protocols: [watchProtocol] }),
    onSome: (t) =>
      headers
        ? { protocols: [watchProtocol], headers: { authorization: `Bearer ${t}` } }
        : { protocols: [watchProtocol, `${bearerProtocolPrefix}${t}`] }
  })
