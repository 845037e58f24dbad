import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { parseJson } from "./BridgeMessages.ts"
import { boundedText } from "./DeviceText.ts"

/**
 * Home Assistant's MQTT discovery messages, as its documentation describes them: a retained JSON
 * `config` on `<prefix>/<component>/[<node_id>/]<object_id>/config`, in full or abbreviated keys, with
 * `~` standing for a base topic. Reading them is pure: a topic and a payload in, a config with full
 * keys and full topics out, or why it cannot be read.
 */

/** A config with its keys and topics expanded: the component's options, as Home Assistant documents them. */
export type Config = Readonly<Record<string, unknown>>

export interface DiscoveryTopic {
  readonly component: string
  /** `<node_id>/<object_id>`, or `<object_id>`: names the entity among the prefix's. */
  readonly path: string
  readonly objectId: string
}

/** The entity a `config` topic names, or `None` for any other topic under the prefix (`status`, states…). */
export const readDiscoveryTopic = (prefix: string, topic: string): Option.Option<DiscoveryTopic> => {
  if (!topic.startsWith(`${prefix}/`) || !topic.endsWith("/config")) return Option.none()
  const parts = topic.slice(prefix.length + 1, -"/config".length).split("/")
  const [component, ...rest] = parts
  const objectId = rest.at(-1)
  if (component === undefined || objectId === undefined || rest.length > 2 || parts.some((p) => p === "")) return Option.none()
  return Option.some({ component, path: rest.join("/"), objectId })
}

/** Home Assistant's abbreviations of the keys the gateway reads (homeassistant/components/mqtt/abbreviations.py). */
const abbreviations: Readonly<Record<string, string>> = {
  atype: "automation_type",
  avty: "availability",
  avty_mode: "availability_mode",
  avty_t: "availability_topic",
  avty_tpl: "availability_template",
  bri_cmd_t: "brightness_command_topic",
  bri_scl: "brightness_scale",
  bri_stat_t: "brightness_state_topic",
  bri_val_tpl: "brightness_value_template",
  cmd_t: "command_topic",
  cmd_tpl: "command_template",
  curr_temp_t: "current_temperature_topic",
  curr_temp_tpl: "current_temperature_template",
  dev: "device",
  dev_cla: "device_class",
  evt_typ: "event_types",
  hs_cmd_t: "hs_command_topic",
  hs_stat_t: "hs_state_topic",
  hs_val_tpl: "hs_value_template",
  max_temp: "max_temp",
  min_temp: "min_temp",
  mode_cmd_t: "mode_command_topic",
  mode_stat_t: "mode_state_topic",
  mode_stat_tpl: "mode_state_template",
  obj_id: "object_id",
  pl: "payload",
  pl_avail: "payload_available",
  pl_cls: "payload_close",
  pl_lock: "payload_lock",
  pl_not_avail: "payload_not_available",
  pl_off: "payload_off",
  pl_on: "payload_on",
  pl_open: "payload_open",
  pl_prs: "payload_press",
  pl_stop: "payload_stop",
  pl_unlk: "payload_unlock",
  pos_clsd: "position_closed",
  pos_open: "position_open",
  pos_t: "position_topic",
  pos_tpl: "position_template",
  rgb_cmd_t: "rgb_command_topic",
  rgb_cmd_tpl: "rgb_command_template",
  rgb_stat_t: "rgb_state_topic",
  rgb_val_tpl: "rgb_value_template",
  set_pos_t: "set_position_topic",
  stat_cla: "state_class",
  stat_clsd: "state_closed",
  stat_locked: "state_locked",
  stat_off: "state_off",
  stat_on: "state_on",
  stat_open: "state_open",
  stat_t: "state_topic",
  stat_unlocked: "state_unlocked",
  stat_val_tpl: "state_value_template",
  stype: "subtype",
  sup_clrm: "supported_color_modes",
  t: "topic",
  temp_cmd_t: "temperature_command_topic",
  temp_stat_t: "temperature_state_topic",
  temp_stat_tpl: "temperature_state_template",
  temp_unit: "temperature_unit",
  uniq_id: "unique_id",
  unit_of_meas: "unit_of_measurement",
  val_tpl: "value_template",
  xy_cmd_t: "xy_command_topic",
  xy_stat_t: "xy_state_topic",
  xy_val_tpl: "xy_value_template"
}

/** The abbreviations of a `device` block's keys. */
const deviceAbbreviations: Readonly<Record<string, string>> = {
  ids: "identifiers",
  cns: "connections",
  mf: "manufacturer",
  mdl: "model",
  sw: "sw_version",
  hw: "hw_version",
  sa: "suggested_area"
}

const isRecord = (json: unknown): json is Readonly<Record<string, unknown>> => typeof json === "object" && json !== null && !Array.isArray(json)

const expandKeys = (record: Readonly<Record<string, unknown>>, table: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [table[key] ?? key, value]))

/** A topic with `~` at its start or end standing for the base topic (Home Assistant's rule). */
const expandTopic = (base: string | undefined, topic: unknown) => {
  if (base === undefined || typeof topic !== "string") return topic
  if (topic.startsWith("~")) return base + topic.slice(1)
  if (topic.endsWith("~")) return topic.slice(0, -1) + base
  return topic
}

const isTopicKey = (key: string) => key === "topic" || key.endsWith("_topic")

const expandTopics = (record: Readonly<Record<string, unknown>>, base: string | undefined) =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, isTopicKey(key) ? expandTopic(base, value) : value]))

/** The config of a `config` message, its keys and topics in full; `None` for an empty payload (the entity is removed). */
export const readConfig = (payload: string): Result.Result<Option.Option<Config>, string> => {
  if (payload.trim() === "") return Result.succeed(Option.none())
  const parsed = parseJson(payload)
  if (Option.isNone(parsed)) return Result.fail("is not JSON")
  const json = parsed.value
  if (!isRecord(json)) return Result.fail("is not a JSON object")
  const full = expandKeys(json, abbreviations)
  const base = typeof full["~"] === "string" ? full["~"] : undefined
  const config: Record<string, unknown> = expandTopics(full, base)
  if (isRecord(config["device"])) config["device"] = expandKeys(config["device"], deviceAbbreviations)
  if (Array.isArray(config["availability"])) {
    config["availability"] = config["availability"].map((entry) => (isRecord(entry) ? expandTopics(expandKeys(entry, abbreviations), base) : entry))
  }
  return Result.succeed(Option.some(config))
}

/** A config option as text: a string as it is, a number or a boolean as its JSON text (`255`, `true`). */
export const textOf = (config: Config, key: string): Option.Option<string> => {
  const value = config[key]
  return typeof value === "string" ? Option.some(value) : typeof value === "number" || typeof value === "boolean" ? Option.some(String(value)) : Option.none()
}

export const textOr = (config: Config, key: string, fallback: string): string => Option.getOrElse(textOf(config, key), () => fallback)

export const numberOf = (config: Config, key: string): Option.Option<number> => {
  const value = config[key]
  return typeof value === "number" && Number.isFinite(value) ? Option.some(value) : Option.none()
}

/** A topic option: a non-empty string without wildcards. */
export const topicOf = (config: Config, key: string): Option.Option<string> =>
  Option.filter(Option.liftPredicate(config[key], (t): t is string => typeof t === "string"), (t) => t !== "" && !/[#+]/.test(t))

/** The device a config belongs to: its first identifier and what it says of itself. */
export interface DiscoveredDevice {
  readonly identifiers: ReadonlyArray<string>
  readonly properties: Readonly<Record<string, string>>
}

/** The config's `device`: its identifiers (a string or a list), else the entity's `unique_id` alone. */
export const deviceOf = (config: Config): Option.Option<DiscoveredDevice> => {
  const device = isRecord(config["device"]) ? config["device"] : {}
  const ids = device["identifiers"]
  const identifiers = (typeof ids === "string" ? [ids] : Array.isArray(ids) ? ids : []).filter((id): id is string => typeof id === "string" && id !== "")
  const fallback = Option.toArray(textOf(config, "unique_id"))
  const chosen = identifiers.length > 0 ? identifiers : fallback
  if (chosen.length === 0) return Option.none()
  const properties: Record<string, string> = {}
  for (const key of ["name", "manufacturer", "model", "sw_version", "hw_version", "suggested_area"]) {
    const text = textOf(device, key)
    if (Option.isSome(text)) properties[key] = boundedText(text.value)
  }
  return Option.some({ identifiers: chosen, properties })
}

/** One availability topic and the payloads that say available and not. */
export interface AvailabilityTopic {
  readonly topic: string
  readonly available: string
  readonly notAvailable: string
  readonly template: Option.Option<string>
}

/** How several availability topics combine (Home Assistant's `availability_mode`). */
export type AvailabilityMode = "all" | "any" | "latest"

/** The config's availability: `availability_topic`, or the list `availability`, with the mode; `[]` when it has none. */
export const availabilityOf = (config: Config): { readonly topics: ReadonlyArray<AvailabilityTopic>; readonly mode: AvailabilityMode } => {
  const entry = (record: Config, topic: string): AvailabilityTopic => ({
    topic,
    available: textOr(record, "payload_available", textOr(config, "payload_available", "online")),
    notAvailable: textOr(record, "payload_not_available", textOr(config, "payload_not_available", "offline")),
    template: Option.orElse(textOf(record, "value_template"), () => textOf(config, "availability_template"))
  })
  const list = Array.isArray(config["availability"]) ? config["availability"].filter(isRecord) : []
  const topics = [
    ...Option.toArray(Option.map(topicOf(config, "availability_topic"), (topic) => entry({}, topic))),
    ...list.flatMap((record) => Option.toArray(Option.map(topicOf(record, "topic"), (topic) => entry(record, topic))))
  ]
  const mode = config["availability_mode"]
  return { topics, mode: mode === "all" || mode === "any" ? mode : "latest" }
}
