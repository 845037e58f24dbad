import { Schema, SchemaTransformation } from "effect"
import { TagRequest } from "../../domain/Request.ts"
import { ChannelSelector, ServiceSelector } from "../../domain/Selector.ts"
import { TagsJson } from "../common/IdentifierJson.ts"
import { decodeWith, encodeWith } from "../common/WireIssue.ts"
import { ChannelTagSelectorsJson } from "./ChannelSelectorJson.ts"
import { NodeSelectorsJson } from "./NodeSelectorJson.ts"

/**
 * Tag bodies (wire.md §6): `{"set": [selector], "tags": [tag]}`, both required, for put/delete_node_tag
 * (NodeSelectors) and put/delete input and output tags (GetSelectors and SetSelectors alike: the
 * operation tags every channel that matches, of either mechanism).
 */
const tagBody = <S, E>(
  selectors: Schema.Codec<ReadonlyArray<S>, E>,
  selector: Schema.Codec<S, unknown>,
  identifier: string,
  description: string
) =>
  Schema.Struct({ set: selectors, tags: TagsJson }).annotate({
    expected: `a tag body {"set": […], "tags": […]}`,
    identifier,
    description
  }).pipe(
    Schema.decodeTo(
      Schema.toType(TagRequest(selector)),
      SchemaTransformation.transform({
        decode: (json): TagRequest<S> => ({ selectors: json.set, tags: json.tags }),
        encode: (request) => ({ set: request.selectors, tags: request.tags })
      })
    )
  )

export const NodeTagBodyJson = tagBody(NodeSelectorsJson, ServiceSelector, "ANodeTagBody", "Tags (or untags) every node that matches any selector.")
/** The selectors must leave the mechanism open: A's channel tag body does not name one. */
export const ChannelTagBodyJson = tagBody(
  ChannelTagSelectorsJson,
  ChannelSelector,
  "AChannelTagBody",
  "Tags (or untags) every channel that matches any selector, of either mechanism."
)

export const decodeNodeTagBody = decodeWith(NodeTagBodyJson)
export const decodeChannelTagBody = decodeWith(ChannelTagBodyJson)
export const encodeNodeTagBody = encodeWith(NodeTagBodyJson)
export const encodeChannelTagBody = encodeWith(ChannelTagBodyJson)
