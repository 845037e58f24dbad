import { builtinKindNames } from "../../domain/Kind.ts"
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
 * Vocabulary A's wire shapes (wire.md §3–6), the first FoxBox draft: nodes, inputs and outputs.
 * Component names start with `A`. Unlike B, A reads no `null` field and no single selector for an array.
 */

/** `{"Exactly": x}`, `{"Empty": []}` or `{"Conflict": []}`; an absent field is Empty. */
const constraint = (exactly: JsonSchema, description: string): JsonSchema =>
  oneOf(
    [
      singleKey("Exactly", exactly),
      singleKey("Empty", ref("AEmpty"), "No constraint."),
      singleKey("Conflict", ref("AEmpty"), "Matches nothing.")
    ],
    description
  )

const channelSelector = (description: string): JsonSchema =>
  closedObject(
    {
      id: ref("AChannelIdConstraint"),
      parent: ref("ANodeIdConstraint", "Channels of this node."),
      tags: ref("Tags", "Channels that carry all of these tags."),
      kind: ref("AKindConstraint")
    },
    [],
    `${description} Every given field must hold; \`{}\` matches everything.`
  )

const tags = ref("Tags")

/** One result per matched channel: `[id, {"Ok": …} | {"Err": E}]`, sorted by id. */
const results = (ok: JsonSchema, description: string): JsonSchema =>
  arrayOf(
    pair(
      {
        description: "The channel's id, or the unknown node id of a NoSuchNode.",
        anyOf: [ref("ChannelId"), ref("ServiceId")]
      },
      oneOf([singleKey("Ok", ok), singleKey("Err", ref("AError"))])
    ),
    description
  )

const updated = nullable(
  ref("Timestamp"),
  "When an input's value last changed, or a value was last sent to an output; null if never."
)

export const schemasA: Components = {
  AEmpty: { description: "A's payload for a variant without data: exactly `[]`.", type: "array", maxItems: 0 },
  AKind: {
    description: "A channel kind in vocabulary A: `{\"OnOff\": []}` for a built-in kind (see KindName), " +
      "`{\"Extension\": {…}}` for an extension.",
    type: "object",
    properties: {
      ...Object.fromEntries(builtinKindNames.map((name) => [name, ref("AEmpty")])),
      Extension: ref("ExtensionKind")
    },
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1
  },
  ANodeIdConstraint: constraint(ref("ServiceId"), "A node id constraint."),
  AChannelIdConstraint: constraint(ref("ChannelId"), "A channel id constraint."),
  AKindConstraint: constraint(ref("AKind"), "A kind constraint, e.g. `{\"Exactly\": {\"OnOff\": []}}`."),
  AGetSelector: channelSelector("Selects inputs."),
  ASetSelector: channelSelector("Selects outputs."),
  ANodeSelector: closedObject(
    {
      id: ref("ANodeIdConstraint"),
      tags: ref("Tags", "Nodes that carry all of these tags."),
      inputs: arrayOf(ref("AGetSelector"), "For each, the node has at least one matching input."),
      outputs: arrayOf(ref("ASetSelector"), "For each, the node has at least one matching output.")
    },
    [],
    "Selects nodes. Every given field must hold; `{}` matches everything."
  ),

  AChannel: closedObject(
    {
      id: ref("ChannelId"),
      node: ref("ServiceId", "The node that holds the channel."),
      tags,
      last_seen: nullable(ref("Timestamp"), "When the device last reported anything for the channel; null if never."),
      mechanism: oneOf([
        singleKey("Get", closedObject({ kind: ref("AKind"), updated }, ["kind", "updated"]), "An input."),
        singleKey(
          "Set",
          closedObject(
            {
              kind: ref("AKind"),
              push: {
                description: "[ms]: the least interval at which the device accepts values; [0] for any rate.",
                type: "array",
                prefixItems: [{ type: "integer", minimum: 0 }],
                items: false,
                minItems: 1,
                maxItems: 1
              },
              updated
            },
            ["kind", "push", "updated"]
          ),
          "An output."
        )
      ])
    },
    ["id", "node", "tags", "last_seen", "mechanism"],
    "An input or output."
  ),
  ANode: closedObject(
    {
      id: ref("ServiceId"),
      tags,
      inputs: arrayOf(ref("AChannel"), "Its inputs, sorted by id."),
      outputs: arrayOf(ref("AChannel"), "Its outputs, sorted by id.")
    },
    ["id", "tags", "inputs", "outputs"],
    "A device."
  ),

  ANodeTagBody: closedObject(
    { set: arrayOf(ref("ANodeSelector")), tags },
    ["set", "tags"],
    "Tags (or untags) every node that matches any selector."
  ),
  AChannelTagBody: closedObject(
    {
      set: arrayOf({
        description: "GetSelectors and SetSelectors alike (they have one shape).",
        anyOf: [ref("AGetSelector"), ref("ASetSelector")]
      }),
      tags
    },
    ["set", "tags"],
    "Tags (or untags) every channel that matches any selector, of either mechanism."
  ),
  APutValueBody: oneOf(
    [
      pair(arrayOf(ref("ASetSelector")), ref("ValueInput"), "The pair [[SetSelector], value]."),
      closedObject({ set: arrayOf(ref("ASetSelector")), value: ref("ValueInput") }, ["set", "value"])
    ],
    "The body of put_channel_value: one value for every output matched."
  ),

  AError: oneOf(
    [
      singleKey("NoSuchNode", ref("ServiceId"), "A selector's `parent` names no node."),
      singleKey("NoSuchGet", ref("ChannelId"), "A selector's `id` names no input."),
      singleKey("NoSuchSet", ref("ChannelId"), "A selector's `id` names no output."),
      singleKey("TypeError", ref("AEmpty"), "The value's type is not the channel's."),
      singleKey("InternalError", { type: "string" }, "The device failed or did not answer in time.")
    ],
    "A per-channel error."
  ),
  AFetchResults: results(
    nullable(ref("Value"), "The value, or null when the channel has no value yet."),
    "One `[id, result]` pair per matched input, sorted by id."
  ),
  ASendResults: results(nullSchema("Written."), "One `[id, result]` pair per matched output, sorted by id."),
  AWatchOptions: closedObject(
    {
      source: ref("AGetSelector"),
      narrow: arrayOf(ref("AGetSelector"), "ANDed with `source`: the watched selector is `source ∧ narrow[0] ∧ …`."),
      should_watch_values: { type: "boolean", description: "Send the inputs' values (default false)." },
      should_watch_topology: { type: "boolean", description: "Send inputs joining and leaving the set (default false)." }
    },
    ["source"],
    "Watch the inputs `source` (narrowed) matches, a live set."
  ),
  AWatchFrame: arrayOf(
    ref("AWatchOptions"),
    "A registration of the watch socket in vocabulary A: its targets, united. Each frame replaces the previous one."
  ),
  AWatchEvent: oneOf(
    [
      singleKey("Value", closedObject({ from: ref("ChannelId"), value: ref("Value") }, ["from", "value"])),
      singleKey("GetAdded", ref("ChannelId"), "The input joined the watched set (or was in it at registration)."),
      singleKey("GetRemoved", ref("ChannelId"), "The input left the watched set."),
      ref("WatchFrameError")
    ],
    "A frame the watch socket sends in vocabulary A."
  )
}
