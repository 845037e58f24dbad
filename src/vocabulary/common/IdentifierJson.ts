import * as Schema from "effect/Schema"
import { AdapterId, ChannelId, normalizeTags, ServiceId, Tag } from "../../domain/Identifier.ts"
import { DOCS } from "./Docs.ts"
import { wireShape } from "./WireShape.ts"

/**
 * Identifiers and tags on the wire (docs/reference.md §1): the domain's own schemas, which carry the rule
 * (non-empty, at most 256 characters, no control characters), named as a client reads them.
 */

const rule = DOCS ? "Non-empty, at most 256 characters (Unicode code points), no control characters." : ""

const channelId = { identifier: "ChannelId", description: DOCS ? `A channel id: a getter or setter (B), an input or output (A). Unique in the gateway. ${rule}` : "" }
const serviceId = { identifier: "ServiceId", description: DOCS ? `A service id (vocabulary B), which is the node id of vocabulary A. ${rule}` : "" }

export const ChannelIdJson = ChannelId.annotate({ ...channelId, expected: "a channel id (a string)" })
/** A channel id where vocabulary B's events call it a getter (the document names the shape once, as ChannelId). */
export const GetterIdJson = ChannelId.annotate({ description: channelId.description, expected: "a getter id (a string)" })
export const ServiceIdJson = ServiceId.annotate({ ...serviceId, expected: "a service id (a string)" })
/** A service id where vocabulary A calls services nodes (the document names the shape once, as ServiceId). */
export const NodeIdJson = ServiceId.annotate({ description: serviceId.description, expected: "a node id (a string)" })
export const AdapterIdJson = AdapterId.annotate({
  identifier: "AdapterId",
  description: DOCS ? `An adapter id, \`<name>@<domain>\` for the built-in adapters. ${rule}` : "",
  expected: "an adapter id (a string)"
})
export const TagJson = Tag.annotate({
  identifier: "Tag",
  description: DOCS ? `A tag a client puts on a service/node or a channel; persisted with the id. ${rule}` : "",
  expected: "a tag (a string)"
})

/** A list of tags, read sorted and without duplicates: the canonical form of a tag set. */
export const TagsJson = wireShape({
  wire: Schema.Array(TagJson).annotate({
    identifier: "Tags",
    description: DOCS ? "Tags. In a selector: the thing carries all of them. In a response: sorted, without duplicates." : "",
    expected: "an array of strings"
  }),
  read: normalizeTags,
  write: normalizeTags
}, Schema.Array(Tag))
