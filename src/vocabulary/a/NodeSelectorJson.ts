import { Schema, SchemaTransformation } from "effect"
import { empty } from "../../domain/Constraint.ts"
import type { Mechanism } from "../../domain/Mechanism.ts"
import { type ChannelSelector, ServiceSelector } from "../../domain/Selector.ts"
import { forMechanism } from "../../domain/SelectorAlgebra.ts"
import { NodeIdJson, TagsJson } from "../common/IdentifierJson.ts"
import { decodeWith, encodeWith } from "../common/WireIssue.ts"
import { GetSelectorsJson, SetSelectorsJson } from "./ChannelSelectorJson.ts"
import { ConstraintJson } from "./ConstraintJson.ts"

/**
 * NodeSelector (wire.md §4): `id`, `tags`, `inputs: [GetSelector]`, `outputs: [SetSelector]`, all optional.
 * A node matches when, for each listed channel selector, it has at least one matching channel.
 */

/**
 * Within a service selector, `getters` are only ever matched against getters: a requirement that leaves
 * the mechanism open means the same as one that names it, and is written as the GetSelector it is.
 */
const within = (mechanism: Mechanism) => (selector: ChannelSelector): ChannelSelector =>
  selector.mechanism._tag === "Empty" ? forMechanism(selector, mechanism) : selector

/** Fails when a channel requirement cannot be written as a GetSelector / SetSelector (see ChannelSelectorJson). */
export const NodeSelectorJson = Schema.Struct({
  id: Schema.optionalKey(ConstraintJson(NodeIdJson)).annotateKey({ description: "The node with this id." }),
  tags: Schema.optionalKey(TagsJson).annotateKey({ description: "Nodes that carry all of these tags." }),
  inputs: Schema.optionalKey(GetSelectorsJson).annotateKey({ description: "For each, the node has at least one matching input." }),
  outputs: Schema.optionalKey(SetSelectorsJson).annotateKey({ description: "For each, the node has at least one matching output." })
}).annotate({
  expected: "a NodeSelector",
  identifier: "ANodeSelector",
  description: "Selects nodes. Every given field must hold; `{}` matches everything."
}).pipe(Schema.decodeTo(
  Schema.toType(ServiceSelector),
  SchemaTransformation.transform({
    decode: (json): ServiceSelector => ({
      id: json.id ?? empty,
      tags: json.tags ?? [],
      getters: json.inputs ?? [],
      setters: json.outputs ?? []
    }),
    encode: (selector) => ({
      ...(selector.id._tag === "Empty" ? {} : { id: selector.id }),
      ...(selector.tags.length === 0 ? {} : { tags: selector.tags }),
      ...(selector.getters.length === 0 ? {} : { inputs: selector.getters.map(within("getter")) }),
      ...(selector.setters.length === 0 ? {} : { outputs: selector.setters.map(within("setter")) })
    })
  })
))

export const NodeSelectorsJson = Schema.Array(NodeSelectorJson).annotate({ expected: "an array of NodeSelector" })

export const decodeNodeSelectors = decodeWith(NodeSelectorsJson)
export const encodeNodeSelectors = encodeWith(NodeSelectorsJson)
