import * as Schema from "effect/Schema"
import { DOCS } from "../common/Docs.ts"
import { ChannelInA as ChannelInASchema } from "./ChannelJson.ts"
import { normalizeTags, ServiceId, Tag } from "../../domain/Identifier.ts"
import { byId, inOrder } from "../../domain/ListOrder.ts"
import type { Mechanism } from "../../domain/Mechanism.ts"
import { NodeIdJson, TagsJson } from "../common/IdentifierJson.ts"
import { wireCheck } from "../common/WireSchema.ts"
import { fieldsOf, wireRecord } from "../common/WireRecord.ts"
import { listOf } from "../common/WireShape.ts"
import { channelInA, channelsJson, type ChannelWire, sortChannels } from "./ChannelJson.ts"

/**
 * What A says of a node (docs/reference.md §5: `{"id", "tags", "inputs", "outputs"}`): a domain Service without
 * its adapter and properties, which A does not show, and with channels as A shows them.
 */
export const NodeInA = Schema.Struct({
  id: ServiceId,
  tags: Schema.Array(Tag),
  getters: Schema.Array(ChannelInASchema),
  setters: Schema.Array(ChannelInASchema)
})
export type NodeInA = typeof NodeInA.Type

/** The A view of a domain service: `decodeNode(encodeNode(s)) = nodeInA(s)` (tags and channels sorted). */
export const nodeInA = (node: NodeInA): NodeInA => ({
  id: node.id,
  tags: normalizeTags(node.tags),
  getters: sortChannels(node.getters).map(channelInA),
  setters: sortChannels(node.setters).map(channelInA)
})

/** A node's channels belong to it and have the mechanism of the list they are in. */
const misplaced = (node: ServiceId, mechanism: Mechanism, channels: ReadonlyArray<ChannelWire>, list: string) => {
  const form = mechanism === "getter" ? "Get" : "Set"
  const index = channels.findIndex((c) => c.node !== node || !(form in c.mechanism))
  const channel = channels[index]
  if (channel === undefined) return undefined
  if (channel.node !== node) {
    return { path: [list, index, "node"], issue: `expected the id of the node that holds the channel, ${JSON.stringify(node)}` }
  }
  return { path: [list, index, "mechanism"], issue: `${mechanism === "getter" ? "an input" : "an output"} channel has a ${form} mechanism` }
}

const inputs = channelsJson("an array of input Channel")
const outputs = channelsJson("an array of output Channel")

const node = fieldsOf(NodeInA)

// Takes a domain Service as it is (adapter and properties are left out) or an A view.
export const NodeJson = wireRecord(NodeInA, {
  id: node.field("id", NodeIdJson),
  tags: node.field("tags", TagsJson),
  inputs: node.field("getters", inputs),
  outputs: node.field("setters", outputs)
}, {
  checks: [wireCheck((node) => misplaced(node.id, "getter", node.inputs, "inputs") ?? misplaced(node.id, "setter", node.outputs, "outputs"))],
  annotations: { expected: "a Node", identifier: "ANode", description: DOCS ? "A device." : "" }
})

export const NodesJson = listOf(NodeJson, { expected: "an array of Node" }, (nodes) => inOrder(nodes, byId))
