import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import type { ServiceId } from "../../domain/Identifier.ts"
import type { DeviceHost, ServiceDescription } from "../../gateway/Adapter.ts"
import type { MqttConnection } from "./MqttConnection.ts"

/**
 * What an MQTT adapter shows the gateway, kept in line with what its devices say: the part the
 * Zigbee2MQTT and MQTT discovery adapters share.
 */

/** A service the adapter wants shown, and what to report once it comes in (what its device said while it was not shown). */
export interface WantedService {
  readonly service: ServiceDescription
  readonly reportKnown: Effect.Effect<void>
}

/** `label` names the adapter in the log (`Zigbee2MQTT device … refused`). */
export const makeShownServices = (host: DeviceHost, label: string) => {
  /** What the gateway shows now, by service id, as last described to it. */
  const shown = new Map<ServiceId, string>()
  /** Shows the services wanted, updated where they changed, and takes out the others. */
  const synchronise = (wanted: ReadonlyMap<ServiceId, WantedService>) =>
    Effect.gen(function*() {
      for (const id of [...shown.keys()]) {
        if (!wanted.has(id)) {
          shown.delete(id)
          yield* host.removeService(id)
        }
      }
      for (const [id, { service, reportKnown }] of wanted) {
        const text = JSON.stringify(service)
        if (shown.get(id) === text) continue
        const wasShown = shown.has(id)
        yield* host.upsertService(service).pipe(
          Effect.tap(() => Effect.sync(() => shown.set(id, text))),
          // A device coming in reports what it said while it was not shown (states arrive in any order).
          Effect.tap(() => (wasShown ? Effect.void : reportKnown)),
          Effect.catchTag("DeviceRejected", (error) => Effect.logWarning(`${label} device ${id} refused: ${error.reason}`))
        )
      }
    })
  return { synchronise, isShown: (id: ServiceId) => shown.has(id) }
}

/** A publish as a channel's reply: success, or the connection's reason as the channel's error. */
export const publishReply = (connection: MqttConnection, topic: string, payload: string): Effect.Effect<Result.Result<void, string>> =>
  connection.publish(topic, payload).pipe(
    Effect.match({ onFailure: (error) => Result.fail(error.message), onSuccess: () => Result.succeed(undefined) })
  )
