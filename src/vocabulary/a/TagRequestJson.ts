import { Result } from "effect"
import { normalizeTags } from "../../domain/Identifier.ts"
import type { TagRequest } from "../../domain/Request.ts"
import type { ChannelSelector, ServiceSelector } from "../../domain/Selector.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import { type Decoded, readObjectWithKeys, readTags, requiredField } from "../common/JsonInput.ts"
import { decodeChannelTagSelectors, encodeChannelTagSelectors } from "./ChannelSelectorJson.ts"
import type { Unexpressible } from "../common/Unexpressible.ts"
import { decodeNodeSelectors, encodeNodeSelectors } from "./NodeSelectorJson.ts"

/**
 * Tag bodies (wire.md §6): `{"set": [selector], "tags": [tag]}`, both required, for put/delete_node_tag
 * (NodeSelectors) and put/delete input and output tags (GetSelectors and SetSelectors alike: the
 * operation tags every channel that matches, of either mechanism).
 */
const tagBodyFields = ["set", "tags"]

const decodeTagBody = <S>(
  decodeSelectors: (json: unknown, path: InputPath) => Decoded<ReadonlyArray<S>>
) =>
(json: unknown, path: InputPath = []): Decoded<TagRequest<S>> =>
  Result.gen(function*() {
    const object = yield* readObjectWithKeys(json, path, `a tag body {"set": […], "tags": […]}`, tagBodyFields)
    const setJson = yield* requiredField(object, "set", path)
    const tagsJson = yield* requiredField(object, "tags", path)
    const selectors = yield* decodeSelectors(setJson, [...path, "set"])
    const tags = yield* readTags(tagsJson, [...path, "tags"])
    return { selectors, tags }
  })

export const decodeNodeTagBody = decodeTagBody<ServiceSelector>(decodeNodeSelectors)
export const decodeChannelTagBody = decodeTagBody<ChannelSelector>(decodeChannelTagSelectors)

const encodeTagBody = <S>(
  encodeSelectors: (selectors: ReadonlyArray<S>) => Result.Result<ReadonlyArray<unknown>, Unexpressible>
) =>
(request: TagRequest<S>): Result.Result<unknown, Unexpressible> =>
  Result.map(encodeSelectors(request.selectors), (set) => ({ set, tags: normalizeTags(request.tags) }))

export const encodeNodeTagBody = encodeTagBody<ServiceSelector>(encodeNodeSelectors)
/** The selectors must leave the mechanism open: A's channel tag body does not name one. */
export const encodeChannelTagBody = encodeTagBody<ChannelSelector>(encodeChannelTagSelectors)
