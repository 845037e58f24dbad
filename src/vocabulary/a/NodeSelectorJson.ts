import * as Schema from "effect/Schema"
import type { Mechanism } from "../../domain/Mechanism.ts"
import { type ChannelSelector, ServiceSelector } from "../../domain/Selector.ts"
import { forMechanism } from "../../domain/SelectorAlgebra.ts"
import { DOCS } from "../common/Docs.ts"
import { NodeIdJson, TagsJson } from "../common/IdentifierJson.ts"
import { fieldsOf, noItems, partialWireRecord } from "../common/WireRecord.ts"
import { type PartialWireShape, partialWireShape, plain, writeEach } from "../common/WireShape.ts"
import { GetSelectorsJson, SetSelectorsJson } from "./ChannelSelectorJson.ts"
import { ConstraintJson, unconstrained } from "./ConstraintJson.ts"

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

/** Channel requirements, written as the selectors of `mechanism` they are. */
const requirements = <W>(selectors: PartialWireShape<ReadonlyArray<ChannelSelector>, W>, mechanism: Mechanism) => ({
  ...selectors,
  write: (all: ReadonlyArray<ChannelSelector>) => selectors.write(all.map(within(mechanism)))
})

const selector = fieldsOf(ServiceSelector)

/** Fails when a channel requirement cannot be written as a GetSelector / SetSelector (see ChannelSelectorJson). */
export const NodeSelectorJson = partialWireRecord(ServiceSelector, {
  id: selector.optional("id", idConstraint, unconstrained, DOCS ? "The node with this id." : ""),
  tags: selector.optional("tags", TagsJson, noItems, DOCS ? "Nodes that carry all of these tags." : ""),
  inputs: selector.optionalPartial("getters", requirements(GetSelectorsJson, "getter"), noItems, DOCS ? "For each, the node has at least one matching input." : ""),
  outputs: selector.optionalPartial("setters", requirements(SetSelectorsJson, "setter"), noItems, DOCS ? "For each, the node has at least one matching output." : "")
}, {
  annotations: { expected: "a NodeSelector", identifier: "ANodeSelector", description: DOCS ? "Selects nodes. Every given field must hold; `{}` matches everything." : "" }
})

export const NodeSelectorsJson = partialWireShape({
  wire: Schema.Array(NodeSelectorJson.wire).annotate({ expected: "an array of NodeSelector" }),
  read: (json) => json.map(NodeSelectorJson.read),
  write: (all: ReadonlyArray<ServiceSelector>) => writeEach(all, NodeSelectorJson.write)
}, Schema.Array(ServiceSelector))
