import { Context, Effect, Layer } from "effect"

export interface BrokerCredentialsShape {
  /** Whether an MQTT client may connect with this username and password (a user's password or API token). */
  readonly check: (username: string, password: string) => Effect.Effect<boolean>
}

/**
 * Who may connect to the embedded MQTT broker: the gateway's users. A seam between the broker and
 * the user store, so that the broker knows nothing of how users are kept.
 */
export class BrokerCredentials extends Context.Service<BrokerCredentials, BrokerCredentialsShape>()("app/BrokerCredentials") {
  /** Refuses everyone: for a gateway that has no users to check against. */
  static readonly refuseAll = Layer.succeed(BrokerCredentials, { check: () => Effect.succeed(false) })
}
