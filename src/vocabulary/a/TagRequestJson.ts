import type * as Schema from "effect/Schema"
import { TagRequest } from "../../domain/Request.ts"
import { ChannelSelector, ServiceSelector } from "../../domain/Selector.ts"
import { DOCS } from "../common/Docs.ts"
import { TagsJson } from "../common/IdentifierJson.ts"
import { fieldsOf, partialWireRecord } from "../common/WireRecord.ts"
import type { PartialWireShape } from "../common/WireShape.ts"
import { ChannelTagSelectorsJson } from "./ChannelSelectorJson.ts"
import { NodeSelectorsJson } from "./NodeSelectorJson.ts"

/**
 * Tag bodies (docs/reference.md §6.3): `{"set": [selector], "tags": [tag]}`, both required, for put/delete_node_tag
 * (NodeSelectors) and put/delete input and output tags (GetSelectors and SetSelectors alike: the
 * operation tags every channel that matches, of either mechanism).
 */
const tagBody = <S, W>(
  selectors: PartialWireShape<ReadonlyArray<S>, W>,
  selector: Schema.Codec<S, unknown>,
  identifier: string,
  description: string
) => {
  const model = TagRequest(selector)
  const body = fieldsOf(model)
  return partialWireRecord(model, {
    set: body.partial("selectors", selectors),
    tags: body.field("tags", TagsJson)
  }, { annotations: { expected: `a tag body {"set": […], "tags": […]}`, identifier, description } })
}

export const NodeTagBodyJson = tagBody(NodeSelectorsJson, ServiceSelector, "ANodeTagBody", DOCS ? "Tags (or untags) every node that matches any selector." : "")
/** The selectors must leave the mechanism open: A's channel tag body does not name one. */
export const ChannelTagBodyJson = tagBody(
  ChannelTagSelectorsJson,
  ChannelSelector,
  "AChannelTagBody",
  DOCS ? "Tags (or untags) every channel that matches any selector, of either mechanism." : ""
)
