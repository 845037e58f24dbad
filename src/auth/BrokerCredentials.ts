import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

export interface BrokerCredentialsShape {
  /**
   * Whether an MQTT client at `address` may connect with this username and password (a user's password
   * or unscoped token).
   */
  readonly check: (username: string, password: string, address: string) => Effect.Effect<boolean>
}

/**
 * Who may connect to the embedded MQTT broker: the gateway's users (src/auth/BrokerLogin.ts). A seam
 * between the broker and the user store, so that the broker knows nothing of how users are kept.
 */
export class BrokerCredentials extends Context.Service<BrokerCredentials, BrokerCredentialsShape>()("app/BrokerCredentials") {}
