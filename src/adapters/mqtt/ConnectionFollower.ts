import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"
import { type HealthCondition, HealthConditions } from "../../gateway/HealthConditions.ts"
import { Registry } from "../../gateway/Registry.ts"
import type { Adapter, DeviceHost } from "../../gateway/Adapter.ts"
import type { ConnectionEvent, MqttConnection } from "./MqttConnection.ts"

/** What an MQTT adapter does with its connection's events; connection changes are logged for it. */
export interface ConnectionHandlers {
  readonly connected: Effect.Effect<void>
  readonly message: (topic: string, payload: string, retained: boolean) => Effect.Effect<void>
}

/**
 * One fiber, for as long as the scope lasts, that reads the connection's events in order: an
 * adapter's picture of its devices changes only there. `component` annotates its log lines.
 */
export const followConnection = (connection: MqttConnection, component: string, handlers: ConnectionHandlers) => {
  const onEvent = (event: ConnectionEvent) => {
    switch (event._tag) {
      case "Connected":
        return Effect.logInfo(`connected to the MQTT broker at ${connection.where}`).pipe(Effect.andThen(handlers.connected))
      case "Disconnected":
        return Effect.logWarning(`lost the MQTT broker at ${connection.where} (${event.reason}); reconnecting`)
      case "ConnectFailed":
        return Effect.logWarning(`cannot connect to the MQTT broker at ${connection.where}: ${event.reason}; retrying`)
      case "Message":
        // What a device sends is outside the gateway's control: a message it cannot take in is logged, and the next one read.
        return handlers.message(event.topic, event.payload, event.retained).pipe(
          Effect.catchDefect((defect) => Effect.logError(`a message on ${event.topic} could not be taken in: ${String(defect)}`))
        )
    }
  }
  return Queue.take(connection.events).pipe(
    Effect.flatMap(onEvent),
    Effect.forever,
    Effect.annotateLogs({ component }),
    Effect.forkScoped
  )
}

/** An MQTT adapter connected through the Registry for as long as the scope lasts; `/health` tells when its connection does not serve. */
export const startMqttAdapter = <S>(
  connect: (
    register: (adapter: Adapter) => Effect.Effect<DeviceHost, never, Scope.Scope>,
    settings: S
  ) => Effect.Effect<{ readonly health: HealthCondition }, never, Scope.Scope>,
  settings: S
) =>
  Effect.gen(function*() {
    const registry = yield* Registry
    const health = yield* HealthConditions
    const connected = yield* connect(registry.register, settings)
    yield* health.add(connected.health)
  })
