import * as Result from "effect/Result"
import { ServiceId } from "../../domain/Identifier.ts"
import type { Value } from "../../domain/Value.ts"
import type { ServiceDescription } from "../../gateway/Adapter.ts"
import type { BridgeInfo } from "./BridgeMessages.ts"
import { boundedProperties } from "./DeviceText.ts"
import { extension, setterId, zigbee2mqttVendor } from "./Point.ts"

/**
 * Zigbee2MQTT itself as a service (docs/adapters/mqtt.md, "The bridge"): what `bridge/info` and
 * `bridge/state` say of it as properties, and `permit_join` as a setter taking a Duration: that many
 * seconds of joining, 0 to stop.
 */

export const bridgeServiceId = ServiceId.make(`service:bridge@${zigbee2mqttVendor}`)
export const permitJoinSetter = setterId("bridge", "permit_join")

/** Zigbee lets a network stay open to joining for at most 254 s at a time. */
const longestJoinSeconds = 254

export const bridgeService = (info: BridgeInfo, online: boolean | undefined, baseTopic: string): ServiceDescription => {
  const properties: Record<string, string> = { name: "Zigbee2MQTT", base_topic: baseTopic }
  if (online !== undefined) properties["state"] = online ? "online" : "offline"
  if (info.version !== undefined) properties["version"] = info.version
  if (info.commit !== undefined) properties["commit"] = info.commit
  if (info.coordinator?.type !== undefined) properties["coordinator"] = info.coordinator.type
  if (info.coordinator?.ieee_address !== undefined) properties["coordinator_ieee_address"] = info.coordinator.ieee_address
  if (info.permit_join !== undefined) properties["permit_join"] = String(info.permit_join)
  return {
    id: bridgeServiceId,
    tags: [],
    properties: boundedProperties(properties),
    getters: [],
    setters: [{ id: permitJoinSetter, kind: extension("permit_join", "Duration"), tags: [], pushMs: 0 }]
  }
}

/**
 * The `bridge/request/permit_join` message for a Duration: Zigbee2MQTT 1.x reads `value` and `time`,
 * 2.x reads `time` (0 stops joining), so the message holds both.
 */
export const permitJoinRequest = (value: Value): Result.Result<string, string> => {
  if (value._tag !== "Duration") return Result.fail(`Zigbee2MQTT's permit_join takes Duration values, not ${value._tag}`)
  const seconds = Math.ceil(value.seconds)
  if (seconds > longestJoinSeconds) return Result.fail(`Zigbee2MQTT permits joining for at most ${longestJoinSeconds} s, not ${seconds}`)
  return Result.succeed(JSON.stringify({ value: seconds > 0, time: seconds }))
}
