import {
  arrayOf,
  closedObject,
  type Components,
  type JsonSchema,
  nullable,
  nullSchema,
  oneOf,
  pair,
  ref,
  singleKey
} from "./JsonSchema.ts"

/**
 * Vocabulary B's wire shapes (wire.md §3–6), the API FoxBox served: services, getters and setters.
 * Component names start with `B`.
 */

/** B reads an absent scalar field and a null one alike: no constraint. Lists are arrays, never null. */
const optional = (schema: JsonSchema, description: string): JsonSchema => nullable(schema, description)

const channelSelector = (description: string): JsonSchema =>
  closedObject(
    {
      id: optional(ref("ChannelId"), "The channel with this id."),
      service: optional(ref("ServiceId"), "Channels of the service with this id."),
      tags: ref("Tags", "Channels that carry all of these tags."),
      service_tags: ref("Tags", "Channels whose service carries all of these tags."),
      kind: optional(ref("BKind"), "Channels of this kind.")
    },
    [],
    `${description} Every given field must hold; \`{}\` matches everything.`
  )

/** `sel(s)` of §6: one selector, or an array of them (any may match; `[]` matches nothing). */
const oneOrMany = (name: string, description: string): JsonSchema =>
  oneOf([ref(name), arrayOf(ref(name))], `${description}: one, or an array of them (a thing matches if it matches any).`)

const tagBody = (key: string, selectors: string, description: string): JsonSchema =>
  closedObject({ [key]: ref(selectors), tags: ref("Tags") }, [key, "tags"], description)

const errorEntry = singleKey("Error", ref("BError"))

export const schemasB: Components = {
  BKind: oneOf(
    [ref("KindName"), ref("ExtensionKind")],
    "A channel kind in vocabulary B: a bare name (`\"OnOff\"`) or an extension object."
  ),
  BGetterSelector: channelSelector("Selects getters."),
  BSetterSelector: channelSelector("Selects setters."),
  BChannelSelector: channelSelector("Selects channels of either mechanism (`/api/v1/channels/tag`)."),
  BServiceSelector: closedObject(
    {
      id: optional(ref("ServiceId"), "The service with this id."),
      tags: ref("Tags", "Services that carry all of these tags."),
      getters: arrayOf(
        ref("BGetterSelector"),
        "For each, the service has at least one matching getter. An array, never a single selector."
      ),
      setters: arrayOf(
        ref("BSetterSelector"),
        "For each, the service has at least one matching setter. An array, never a single selector."
      )
    },
    [],
    "Selects services. Every given field must hold; `{}` matches everything."
  ),
  BGetterSelectors: oneOrMany("BGetterSelector", "GetterSelectors"),
  BSetterSelectors: oneOrMany("BSetterSelector", "SetterSelectors"),
  BChannelSelectors: oneOrMany("BChannelSelector", "Channel selectors"),
  BServiceSelectors: oneOrMany("BServiceSelector", "ServiceSelectors"),

  BChannel: closedObject(
    {
      id: ref("ChannelId"),
      service: ref("ServiceId", "The service that holds the channel."),
      adapter: ref("AdapterId"),
      mechanism: { type: "string", enum: ["getter", "setter"] },
      kind: ref("BKind"),
      tags: ref("Tags"),
      updated: nullable(
        ref("Timestamp"),
        "When a getter's value last changed, or a value was last sent to a setter; null if never."
      ),
      last_seen: nullable(ref("Timestamp"), "When the device last reported anything for the channel; null if never.")
    },
    ["id", "service", "adapter", "mechanism", "kind", "tags", "updated", "last_seen"],
    "A getter or setter."
  ),
  BService: closedObject(
    {
      id: ref("ServiceId"),
      adapter: ref("AdapterId"),
      tags: ref("Tags"),
      properties: {
        description: "What the device says of itself, such as `name` and `model`.",
        type: "object",
        additionalProperties: { type: "string" }
      },
      getters: arrayOf(ref("BChannel"), "Its getters, sorted by id."),
      setters: arrayOf(ref("BChannel"), "Its setters, sorted by id.")
    },
    ["id", "adapter", "tags", "properties", "getters", "setters"],
    "A device."
  ),

  BServiceTagBody: tagBody("services", "BServiceSelectors", "Tags (or untags) every service that matches."),
  BChannelTagBody: tagBody("set", "BChannelSelectors", "Tags (or untags) every channel that matches, of either mechanism."),
  BGetterTagBody: tagBody("getters", "BGetterSelectors", "Tags (or untags) every getter that matches."),
  BSetterTagBody: tagBody("setters", "BSetterSelectors", "Tags (or untags) every setter that matches."),
  BSendTarget: closedObject(
    { select: ref("BSetterSelectors"), value: ref("ValueInput") },
    ["select", "value"],
    "One value for every setter matched."
  ),
  BSendBody: oneOf(
    [
      ref("BSendTarget"),
      arrayOf(
        oneOf([ref("BSendTarget"), pair(ref("BSetterSelectors"), ref("ValueInput"), "The pair [selectors, value].")]),
        "Several targets, each a target object or a pair [selectors, value] (as FoxBox clients send them), mixed; " +
          "the last value wins for a setter addressed twice."
      ),
      pair(ref("BSetterSelectors"), ref("ValueInput"), "The pair [selectors, value].")
    ],
    "The body of send_values, in any of its three forms."
  ),

  BError: oneOf(
    [
      singleKey("NoSuchService", ref("ServiceId"), "A selector's `service` names no service."),
      singleKey("NoSuchGetter", ref("ChannelId"), "A selector's `id` names no getter."),
      singleKey("NoSuchSetter", ref("ChannelId"), "A selector's `id` names no setter."),
      singleKey(
        "TypeError",
        closedObject({ expected: ref("ValueTypeName"), got: ref("ValueTypeName") }, ["expected", "got"]),
        "The value's type is not the channel's (value type names, not kinds)."
      ),
      singleKey("InternalError", { type: "string" }, "The device failed or did not answer in time.")
    ],
    "A per-channel error."
  ),
  BFetchResults: {
    description: "Keyed by channel id (or by the unknown service id of a NoSuchService), sorted.",
    type: "object",
    additionalProperties: oneOf([ref("Value"), nullSchema("The channel has no value yet."), errorEntry])
  },
  BSendResults: {
    description: "Keyed by channel id (or by the unknown service id of a NoSuchService), sorted.",
    type: "object",
    additionalProperties: oneOf([nullSchema("Sent."), errorEntry])
  },
  BWatchTarget: closedObject(
    {
      select: ref("BGetterSelectors"),
      range: oneOf(
        [ref("Range"), { type: "string", enum: ["Never", "Always"] }, nullSchema("Always.")],
        "Which values are sent: those in the range, none (`\"Never\"`), or all (absent or null)."
      )
    },
    ["select"],
    "Watch the getters `select` matches (a live set), with their values filtered by `range`."
  ),
  BWatchFrame: oneOf(
    [ref("BWatchTarget"), arrayOf(ref("BWatchTarget"))],
    "A registration of the watch socket in vocabulary B: its targets, united. Each frame replaces the previous one."
  ),
  BWatchEvent: oneOf(
    [
      singleKey("Value", closedObject({ from: ref("ChannelId"), value: ref("Value") }, ["from", "value"])),
      singleKey("GetterAdded", ref("ChannelId"), "The getter joined the watched set (or was in it at registration)."),
      singleKey("GetterRemoved", ref("ChannelId"), "The getter left the watched set."),
      singleKey(
        "InitializationError",
        closedObject({ channel: ref("ChannelId"), error: ref("BError") }, ["channel", "error"]),
        "The device refuses to be watched this way (e.g. `Always` on a thresholds-only sensor)."
      ),
      ref("WatchFrameError")
    ],
    "A frame the watch socket sends in vocabulary B."
  )
}
