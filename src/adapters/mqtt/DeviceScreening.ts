import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { ChannelId, ServiceId } from "../../domain/Identifier.ts"
import type { BridgeDevice, Expose } from "./BridgeMessages.ts"
import { getterText, serviceText } from "./Point.ts"
import { plainTopicProblem } from "./TopicRules.ts"

/**
 * The devices of `bridge/devices` the gateway can show. A friendly name goes into the topics the
 * gateway publishes (`<base>/<name>/set`, `/get`), so a name MQTT cannot carry there (empty, NUL or
 * another control character, `+` or `#`, not UTF-8, too long) would make the broker drop the
 * connection; `/` stays allowed, as Zigbee2MQTT allows it. The IEEE address and the exposes'
 * properties make the ids, which have a limit. A device refused is not shown, and nothing is
 * published for it. docs/adapters/mqtt.md, "What is refused".
 */

const isServiceId = Schema.is(ServiceId)
const isChannelId = Schema.is(ChannelId)

/** Every property an expose or its features hold (each may name a channel). */
const propertiesOf = (exposes: ReadonlyArray<Expose>): ReadonlyArray<string> =>
  exposes.flatMap((expose) => [...(expose.property === undefined ? [] : [expose.property]), ...propertiesOf(expose.features ?? [])])

const makesIds = (device: BridgeDevice): boolean =>
  isServiceId(serviceText(device.ieee_address)) &&
  propertiesOf(device.definition?.exposes ?? []).every((property) => isChannelId(getterText(device.ieee_address, property)))

/** Why a device cannot be shown, or `None`. */
const refusalOf = (device: BridgeDevice, base: string): Option.Option<string> => {
  if (device.friendly_name === "") return Option.some("its friendly name is empty")
  const problem = plainTopicProblem(`${base}/${device.friendly_name}/set`)
  if (Option.isSome(problem)) return Option.some(`its friendly name ${problem.value}`)
  if (!makesIds(device)) return Option.some("its ids would be longer than 256 characters or hold control characters")
  return Option.none()
}

/** The devices that can be shown, and a log line for each that cannot. */
export const screenDevices = (
  devices: ReadonlyArray<BridgeDevice>,
  base: string
): { readonly shown: ReadonlyArray<BridgeDevice>; readonly refusals: ReadonlySet<string> } => {
  const shown: Array<BridgeDevice> = []
  const refusals = new Set<string>()
  for (const [index, device] of devices.entries()) {
    const refusal = refusalOf(device, base)
    if (Option.isNone(refusal)) {
      shown.push(device)
      continue
    }
    // An address that makes no id may be long or hold control characters: the device is named by its place instead.
    const named = isServiceId(serviceText(device.ieee_address)) ? device.ieee_address : `number ${index + 1} of bridge/devices`
    refusals.add(`Zigbee2MQTT device ${named} is not shown: ${refusal.value}`)
  }
  return { shown, refusals }
}
