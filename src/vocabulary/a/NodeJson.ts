import { Schema, SchemaTransformation } from "effect"
import { ChannelInA as ChannelInASchema } from "./ChannelJson.ts"
import { normalizeTags, ServiceId, Tag } from "../../domain/Identifier.ts"
import { byId } from "../../domain/ListOrder.ts"
import type { Mechanism } from "../../domain/Mechanism.ts"
import { NodeIdJson, TagsJson } from "../common/IdentifierJson.ts"
import { decodeWith, encodeTotal } from "../common/WireIssue.ts"
import { type ChannelInA, channelInA, channelsJson, sortChannels } from "./ChannelJson.ts"

/**
 * What A says of a node (wire.md §5: `{"id", "tags", "inputs", "outputs"}`): a domain Service without
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
const misplaced = (node: ServiceId, mechanism: Mechanism, channels: ReadonlyArray<ChannelInA>, list: string) => {
  const index = channels.findIndex((c) => c.service !== node || c.mechanism !== mechanism)
  const channel = channels[index]
  if (channel === undefined) return undefined
  if (channel.service !== node) {
    return { path: [list, index, "node"], issue: `expected the id of the node that holds the channel, ${JSON.stringify(node)}` }
  }
  const [kind, form] = mechanism === "getter" ? ["an input", "Get"] : ["an output", "Set"]
  return { path: [list, index, "mechanism"], issue: `${kind} channel has a ${form} mechanism` }
}

export const NodeJson = Schema.Struct({
  id: NodeIdJson,
  tags: TagsJson,
  inputs: channelsJson("an array of input Channel"),
  outputs: channelsJson("an array of output Channel")
}).check(Schema.makeFilter((node) =>
  misplaced(node.id, "getter", node.inputs, "inputs") ?? misplaced(node.id, "setter", node.outputs, "outputs")
)).annotate({ expected: "a Node", identifier: "ANode", description: "A device." }).pipe(Schema.decodeTo(
  Schema.toType(NodeInA),
  SchemaTransformation.transform({
    decode: (json): NodeInA => ({ id: json.id, tags: json.tags, getters: json.inputs, setters: json.outputs }),
    // Takes a domain Service as it is (adapter and properties are left out) or an A view.
    encode: (node) => ({ id: node.id, tags: node.tags, inputs: node.getters, outputs: node.setters })
  })
))

export const NodesJson = Schema.Array(NodeJson).annotate({ expected: "an array of Node" }).pipe(Schema.decode(
  SchemaTransformation.transform({ decode: (nodes) => nodes, encode: (nodes) => [...nodes].sort(byId) })
))

export const decodeNodes = decodeWith(NodesJson)
export const encodeNode = encodeTotal(NodeJson)
export const encodeNodes = encodeTotal(NodesJson)
