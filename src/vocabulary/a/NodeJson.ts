import { Result } from "effect"
import { normalizeTags, ServiceId } from "../../domain/Identifier.ts"
import type { Mechanism } from "../../domain/Mechanism.ts"
import type { Service } from "../../domain/Service.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import {
  type Decoded,
  invalid,
  readArrayOf,
  readNodeId,
  readObjectWithKeys,
  readRequired,
  readTags
} from "../common/JsonInput.ts"
import { byId } from "../../domain/ListOrder.ts"
import { type ChannelInA, channelInA, decodeChannel, encodeChannel, sortChannels } from "./ChannelJson.ts"

/**
 * What A says of a node (wire.md §5: `{"id", "tags", "inputs", "outputs"}`): a domain Service without
 * its adapter and properties, which A does not show, and with channels as A shows them.
 */
export interface NodeInA {
  readonly id: Service["id"]
  readonly tags: Service["tags"]
  readonly getters: ReadonlyArray<ChannelInA>
  readonly setters: ReadonlyArray<ChannelInA>
}

/** The A view of a domain service: `decodeNode(encodeNode(s)) = nodeInA(s)` (tags and channels sorted). */
export const nodeInA = (node: NodeInA): NodeInA => ({
  id: node.id,
  tags: normalizeTags(node.tags),
  getters: sortChannels(node.getters).map(channelInA),
  setters: sortChannels(node.setters).map(channelInA)
})

const nodeFields = ["id", "tags", "inputs", "outputs"]

/** A node's channels belong to it and have the mechanism of the list they are in. */
const decodeOwnChannel = (node: ServiceId, mechanism: Mechanism) =>
(json: unknown, path: InputPath): Decoded<ChannelInA> =>
  Result.flatMap(decodeChannel(json, path), (channel) => {
    if (channel.service !== node) {
      return invalid([...path, "node"], `expected the id of the node that holds the channel, ${JSON.stringify(node)}`)
    }
    if (channel.mechanism !== mechanism) {
      const [list, form] = mechanism === "getter" ? ["an input", "Get"] : ["an output", "Set"]
      return invalid([...path, "mechanism"], `${list} channel has a ${form} mechanism`)
    }
    return Result.succeed(channel)
  })

export const decodeNode = (json: unknown, path: InputPath): Decoded<NodeInA> =>
  Result.gen(function*() {
    const object = yield* readObjectWithKeys(json, path, "a Node", nodeFields)
    const read = <A>(key: string, decode: (json: unknown, path: InputPath) => Decoded<A>) =>
      readRequired(object, key, path, decode)
    const id = yield* read("id", readNodeId)
    const tags = yield* read("tags", readTags)
    const getters = yield* read("inputs", (j, at) =>
      readArrayOf(j, at, "an array of input Channel", decodeOwnChannel(id, "getter")))
    const setters = yield* read("outputs", (j, at) =>
      readArrayOf(j, at, "an array of output Channel", decodeOwnChannel(id, "setter")))
    return { id, tags, getters, setters }
  })

export const decodeNodes = (json: unknown, path: InputPath = []): Decoded<ReadonlyArray<NodeInA>> =>
  readArrayOf(json, path, "an array of Node", decodeNode)

/** Takes a domain Service as it is (adapter and properties are left out) or an A view. */
export const encodeNode = (node: NodeInA): unknown => ({
  id: node.id,
  tags: normalizeTags(node.tags),
  inputs: sortChannels(node.getters).map(encodeChannel),
  outputs: sortChannels(node.setters).map(encodeChannel)
})

export const encodeNodes = (nodes: ReadonlyArray<NodeInA>): unknown => [...nodes].sort(byId).map(encodeNode)
