import { Result, Schema } from "effect"
import { empty } from "../../domain/Constraint.ts"
import type { Mechanism } from "../../domain/Mechanism.ts"
import { type ChannelSelector, ServiceSelector } from "../../domain/Selector.ts"
import { forMechanism } from "../../domain/SelectorAlgebra.ts"
import { NodeIdJson, TagsJson } from "../common/IdentifierJson.ts"
import { decodeWith, encodeWith } from "../common/WireIssue.ts"
import { partialWireShape, plain, writeEach } from "../common/WireShape.ts"
import { GetSelectorsJson, SetSelectorsJson } from "./ChannelSelectorJson.ts"
import { ConstraintJson } from "./ConstraintJson.ts"

/**
 * NodeSelector (docs/reference.md §4): `id`, `tags`, `inputs: [GetSelector]`, `outputs: [SetSelector]`, all optional.
 * A node matches when, for each listed channel selector, it has at least one matching channel.
 */

/**
 * Within a service selector, `getters` are only ever matched against getters: a requirement that leaves
 * the mechanism open means the same as one that names it, and is written as the GetSelector it is.
 */
const within = (mechanism: Mechanism) => (selector: ChannelSelector): ChannelSelector =>
  selector.mechanism._tag === "Empty" ? forMechanism(selector, mechanism) : selector

const idConstraint = ConstraintJson(plain(NodeIdJson))

const nodeSelector = Schema.Struct({
  id: Schema.optionalKey(idConstraint.wire).annotateKey({ description: "The node with this id." }),
  tags: Schema.optionalKey(TagsJson.wire).annotateKey({ description: "Nodes that carry all of these tags." }),
  inputs: Schema.optionalKey(GetSelectorsJson.wire).annotateKey({ description: "For each, the node has at least one matching input." }),
  outputs: Schema.optionalKey(SetSelectorsJson.wire).annotateKey({ description: "For each, the node has at least one matching output." })
}).annotate({
  expected: "a NodeSelector",
  identifier: "ANodeSelector",
  description: "Selects nodes. Every given field must hold; `{}` matches everything."
})

/** Fails when a channel requirement cannot be written as a GetSelector / SetSelector (see ChannelSelectorJson). */
export const NodeSelectorJson = partialWireShape({
  wire: nodeSelector,
  read: (json): ServiceSelector => ({
    id: json.id === undefined ? empty : idConstraint.read(json.id),
    tags: json.tags === undefined ? [] : TagsJson.read(json.tags),
    getters: json.inputs === undefined ? [] : GetSelectorsJson.read(json.inputs),
    setters: json.outputs === undefined ? [] : SetSelectorsJson.read(json.outputs)
  }),
  write: (selector: ServiceSelector) =>
    Result.gen(function*() {
      const inputs = yield* GetSelectorsJson.write(selector.getters.map(within("getter")))
      const outputs = yield* SetSelectorsJson.write(selector.setters.map(within("setter")))
      return {
        ...(selector.id._tag === "Empty" ? {} : { id: idConstraint.write(selector.id) }),
        ...(selector.tags.length === 0 ? {} : { tags: TagsJson.write(selector.tags) }),
        ...(inputs.length === 0 ? {} : { inputs }),
        ...(outputs.length === 0 ? {} : { outputs })
      }
    })
}, ServiceSelector)

export const NodeSelectorsJson = partialWireShape({
  wire: Schema.Array(nodeSelector).annotate({ expected: "an array of NodeSelector" }),
  read: (json) => json.map(NodeSelectorJson.read),
  write: (all: ReadonlyArray<ServiceSelector>) => writeEach(all, NodeSelectorJson.write)
}, Schema.Array(ServiceSelector))

export const decodeNodeSelectors = decodeWith(NodeSelectorsJson)
export const encodeNodeSelectors = encodeWith(NodeSelectorsJson)
