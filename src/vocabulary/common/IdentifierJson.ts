import { Schema, SchemaTransformation } from "effect"
import { AdapterId, ChannelId, normalizeTags, ServiceId, Tag } from "../../domain/Identifier.ts"

/**
 * Identifiers and tags on the wire (wire.md §1): the domain's own schemas, which carry the rule
 * (non-empty, at most 256 characters, no control characters), named as a client reads them.
 */

export const ChannelIdJson = ChannelId.annotate({ expected: "a channel id (a string)" })
export const ServiceIdJson = ServiceId.annotate({ expected: "a service id (a string)" })
/** A service id where vocabulary A calls services nodes. */
export const NodeIdJson = ServiceId.annotate({ expected: "a node id (a string)" })
export const AdapterIdJson = AdapterId.annotate({ expected: "an adapter id (a string)" })
export const TagJson = Tag.annotate({ expected: "a tag (a string)" })

/** A list of tags, read sorted and without duplicates: the canonical form of a tag set. */
export const TagsJson = Schema.Array(TagJson).annotate({ expected: "an array of strings" }).pipe(
  Schema.decodeTo(
    Schema.toType(Schema.Array(Tag)),
    SchemaTransformation.transform({ decode: normalizeTags, encode: normalizeTags })
  )
)
