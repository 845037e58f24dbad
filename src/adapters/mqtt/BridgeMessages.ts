import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as JsonText from "../../vocabulary/common/JsonText.ts"

/**
 * The messages Zigbee2MQTT publishes about itself and its devices, as its MQTT interface documents
 * them: the retained `bridge/devices` list, each device's `definition.exposes`, and the `online` /
 * `offline` of `bridge/state` and `<device>/availability`. Only the fields the gateway reads are
 * declared; the rest of each message is ignored.
 */

/** One feature of a device: what it measures or accepts, under which key of its state JSON. */
export interface Expose {
  readonly type: string
  readonly name?: string | undefined
  readonly property?: string | undefined
  /** Bit flags: 1 the property is in the published state, 2 it can be `/set`, 4 it can be `/get`. */
  readonly access?: number | undefined
  readonly unit?: string | undefined
  readonly value_on?: unknown
  readonly value_off?: unknown
  /** An enum's values. */
  readonly values?: ReadonlyArray<unknown> | undefined
  /** A numeric's range. */
  readonly value_min?: number | undefined
  readonly value_max?: number | undefined
  readonly features?: ReadonlyArray<Expose> | undefined
}

export const Expose: Schema.Codec<Expose> = Schema.Struct({
  type: Schema.String,
  name: Schema.optional(Schema.String),
  property: Schema.optional(Schema.String),
  access: Schema.optional(Schema.Number),
  unit: Schema.optional(Schema.String),
  value_on: Schema.optional(Schema.Unknown),
  value_off: Schema.optional(Schema.Unknown),
  values: Schema.optional(Schema.Array(Schema.Unknown)),
  value_min: Schema.optional(Schema.Number),
  value_max: Schema.optional(Schema.Number),
  features: Schema.optional(Schema.Array(Schema.suspend((): Schema.Codec<Expose> => Expose)))
})

export const accessBits = { published: 1, set: 2, get: 4 } as const

export const BridgeDevice = Schema.Struct({
  ieee_address: Schema.String,
  friendly_name: Schema.String,
  type: Schema.optional(Schema.String),
  disabled: Schema.optional(Schema.Boolean),
  definition: Schema.optional(
    Schema.NullOr(
      Schema.Struct({
        model: Schema.optional(Schema.NullOr(Schema.String)),
        vendor: Schema.optional(Schema.NullOr(Schema.String)),
        description: Schema.optional(Schema.NullOr(Schema.String)),
        exposes: Schema.Array(Expose)
      })
    )
  )
})
export type BridgeDevice = typeof BridgeDevice.Type

const decodeDevices = Schema.decodeUnknownResult(Schema.Array(BridgeDevice))

/** A payload's JSON, or `None` when it is not JSON. */
export const parseJson = (payload: string): Option.Option<unknown> => Result.getSuccess(JsonText.parseJson(payload))

/** The `bridge/devices` list, or why it cannot be read. */
export const readBridgeDevices = (payload: string): Result.Result<ReadonlyArray<BridgeDevice>, string> =>
  Option.match(parseJson(payload), {
    onNone: () => Result.fail("bridge/devices is not JSON"),
    onSome: (json) => Result.mapError(decodeDevices(json), (issue) => `bridge/devices: ${issue.message}`)
  })

/**
 * `bridge/info` (retained): the bridge's version and coordinator, and whether it permits joining
 * (Zigbee2MQTT 1.x and 2.x alike).
 */
export const BridgeInfo = Schema.Struct({
  version: Schema.optional(Schema.String),
  commit: Schema.optional(Schema.String),
  coordinator: Schema.optional(Schema.Struct({
    ieee_address: Schema.optional(Schema.String),
    type: Schema.optional(Schema.String)
  })),
  permit_join: Schema.optional(Schema.Boolean)
})
export type BridgeInfo = typeof BridgeInfo.Type

const decodeInfo = Schema.decodeUnknownResult(BridgeInfo)

/** The `bridge/info` message, or why it cannot be read. */
export const readBridgeInfo = (payload: string): Result.Result<BridgeInfo, string> =>
  Option.match(parseJson(payload), {
    onNone: () => Result.fail("bridge/info is not JSON"),
    onSome: (json) => Result.mapError(decodeInfo(json), (issue) => `bridge/info: ${issue.message}`)
  })

/**
 * `online` / `offline` from `bridge/state` or `<device>/availability`: the JSON form
 * `{"state": "online"}` and the legacy plain text alike. `None` for anything else.
 */
export const readOnline = (payload: string): Option.Option<boolean> => {
  const text = payload.trim()
  const state = Option.match(parseJson(text), {
    onNone: () => text,
    onSome: (json) =>
      typeof json === "object" && json !== null && "state" in json ? json.state : typeof json === "string" ? json : undefined
  })
  return state === "online" ? Option.some(true) : state === "offline" ? Option.some(false) : Option.none()
}

/**
 * What a message under the base topic is, by its topic (`rest`: the topic without `<base>/`):
 * - `Devices`, `BridgeState`, `Info`: `bridge/devices`, `bridge/state` and `bridge/info`; `Ignored`:
 *   every other `bridge/…` (the gateway's own `bridge/request/…` among them);
 * - `Command`: a `/set` or `/get` (`<name>/set`, `<name>/set/<attribute>`, `<name>/<endpoint>/get`…),
 *   the gateway's own or another client's. It is what a device is asked to do, not what it says, so it
 *   is never read as a state. Zigbee2MQTT reads the same topics as commands
 *   (`<base>/(?!bridge)(.+?)/(get|set)(?:/(.+))?`), so a device whose name holds a `/set` or `/get`
 *   segment cannot publish a state there either;
 * - `Get`: the one command the gateway reads, a whole device's `<name>/get` (the form it publishes
 *   itself), so that a `/get` another replica sent is not sent again (src/adapters/mqtt/AskedStates.ts);
 * - `Availability`: `<name>/availability`;
 * - `State`: anything else, `<name>` (the device's state JSON).
 */
export type BridgeTopic =
  | { readonly _tag: "Devices" }
  | { readonly _tag: "BridgeState" }
  | { readonly _tag: "Info" }
  | { readonly _tag: "Ignored" }
  | { readonly _tag: "Command" }
  | { readonly _tag: "Get"; readonly name: string }
  | { readonly _tag: "Availability"; readonly name: string }
  | { readonly _tag: "State"; readonly name: string }

/** Zigbee2MQTT's own reading of a command topic: the shortest name before a `/get` or `/set` segment. */
const command = /^(.+?)\/(get|set)(?:\/(.+))?$/

export const readTopic = (rest: string): BridgeTopic => {
  if (rest === "bridge/devices") return { _tag: "Devices" }
  if (rest === "bridge/state") return { _tag: "BridgeState" }
  if (rest === "bridge/info") return { _tag: "Info" }
  if (rest.startsWith("bridge/")) return { _tag: "Ignored" }
  const [, name, verb, attribute] = command.exec(rest) ?? []
  if (verb !== undefined) return verb === "get" && attribute === undefined && name !== undefined ? { _tag: "Get", name } : { _tag: "Command" }
  if (rest.endsWith("/availability")) return { _tag: "Availability", name: rest.slice(0, -"/availability".length) }
  return { _tag: "State", name: rest }
}

/** A payload that is a JSON object: a device's state message (the one it publishes on `<base>/<friendly_name>`), a discovery config… */
export const readState = (payload: string): Option.Option<Readonly<Record<string, unknown>>> =>
  Option.filter(parseJson(payload), (json): json is Readonly<Record<string, unknown>> =>
    typeof json === "object" && json !== null && !Array.isArray(json))
