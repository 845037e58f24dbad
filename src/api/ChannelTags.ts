import * as Option from "effect/Option"
import { ChannelTagBodyJson, encodeChannelTagBody, readChannelTagBody, type TagBodyRead } from "../vocabulary/ChannelTagBody.ts"
import { DOCS } from "../vocabulary/common/Docs.ts"
import { tokenWith } from "./Access.ts"
import { tagCount } from "./BothVocabularies.ts"
import { type Body, endpoint, group } from "./Endpoint.ts"
import { vocabularyParameter } from "./QueryParameters.ts"

/** `/api/v1/channels/tag`, shared by both vocabularies: tags channels of either mechanism (docs/reference.md §6.5). */

const query = { vocabulary: vocabularyParameter(DOCS ? "Reads the body in this vocabulary; absent, the body's shape tells." : "") }

/** Read with the vocabulary it spoke: the request log, the metrics and the deprecation of A count it in that one. */
const body: Body<TagBodyRead, typeof query> = {
  schema: ChannelTagBodyJson,
  description: DOCS ? "The channels and the tags, in either vocabulary." : "",
  whenAbsent: Option.none(),
  read: (json, { vocabulary }) => readChannelTagBody(json, vocabulary),
  // Written in the vocabulary `?vocabulary=` names, or else the one the request was read in.
  write: (read, { vocabulary }) => encodeChannelTagBody(read.request, vocabulary ?? read.vocabulary)
}

const channelTagOperation = <const Id extends string>(operationId: Id, method: "POST" | "DELETE", summary: string) =>
  endpoint({
    operationId,
    method,
    path: "/api/v1/channels/tag",
    access: tokenWith("tag"),
    tag: "shared",
    summary,
    description: DOCS ? "Touches every channel that matches now, of either mechanism. A's put/delete input and output " +
      "tags and B's add/remove getter and setter tags." : "",
    query,
    body,
    answer: tagCount
  })

export const channelTags = group(
  channelTagOperation("add_channel_tags", "POST", DOCS ? "Add tags to channels (both vocabularies)" : ""),
  channelTagOperation("remove_channel_tags", "DELETE", DOCS ? "Remove tags from channels (both vocabularies)" : "")
)
