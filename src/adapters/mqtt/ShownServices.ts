import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type { ServiceId } from "../../domain/Identifier.ts"
import type { DeviceHost, ServiceDescription } from "../../gateway/Adapter.ts"
import { metricFamily } from "../../gateway/MetricFamily.ts"
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

/** The work of keeping the services in line: each is encoded to be compared with what the gateway shows. */
const comparisonsOf = metricFamily((adapter: string) =>
  Metric.counter("gateway_mqtt_services_compared_total", {
    description: "Services an MQTT adapter encoded and compared with what the gateway shows, to update those that changed.",
    incremental: true,
    attributes: { adapter }
  })
)

/** `label` names the adapter in the log (`Zigbee2MQTT device … refused`); `adapter` is its id, in the metrics. */
export const makeShownServices = (host: DeviceHost, label: string, adapter: string) => {
  /** What the gateway shows now, by service id, as last described to it. */
  const shown = new Map<ServiceId, string>()
  const comparisons = comparisonsOf(adapter)

  /** Shows the service wanted, updated if it changed, or (`None`) takes it out. */
  const update = (id: ServiceId, wanted: Option.Option<WantedService>): Effect.Effect<void> => {
    if (Option.isNone(wanted)) return shown.delete(id) ? host.removeService(id) : Effect.void
    const { service, reportKnown } = wanted.value
    const text = JSON.stringify(service)
    const wasShown = shown.has(id)
    const compared = Metric.update(comparisons, 1)
    if (shown.get(id) === text) return compared
    return compared.pipe(
      Effect.andThen(host.upsertService(service)),
      Effect.tap(() => Effect.sync(() => shown.set(id, text))),
      // A device coming in reports what it said while it was not shown (states arrive in any order).
      Effect.tap(() => (wasShown ? Effect.void : reportKnown)),
      Effect.catchTag("DeviceRejected", (error) => Effect.logWarning(`${label} device ${id} refused: ${error.reason}`))
    )
  }

  /** Shows the services wanted, updated where they changed, and takes out the others. */
  const synchronise = (wanted: ReadonlyMap<ServiceId, WantedService>) =>
    Effect.gen(function*() {
      for (const id of [...shown.keys()]) if (!wanted.has(id)) yield* update(id, Option.none())
      for (const [id, service] of wanted) yield* update(id, Option.some(service))
    })
  return { update, synchronise, isShown: (id: ServiceId) => shown.has(id) }
}

/** A publish as a channel's reply: success, or the connection's reason as the channel's error. */
export const publishReply = (connection: MqttConnection, topic: string, payload: string): Effect.Effect<Result.Result<void, string>> =>
  connection.publish(topic, payload).pipe(
    Effect.match({ onFailure: (error) => Result.fail(error.message), onSuccess: () => Result.succeed(undefined) })
  )
