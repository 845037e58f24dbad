import * as Effect from "effect/Effect"
import { channelTags } from "../../api/ChannelTags.ts"
import type { TagOperation } from "../../domain/Request.ts"
import type { TagBodyRead } from "../../vocabulary/ChannelTagBody.ts"
import { bindGroup } from "../routing/Handlers.ts"
import { RequestNotes } from "../observation/RequestNotes.ts"
import * as Canonical from "./CanonicalCalls.ts"

/** The tag edit of a body, noted as spoken in the vocabulary that read it (its path does not tell). */
const tagChannels = (operation: TagOperation, { vocabulary, request }: TagBodyRead) =>
  Effect.andThen(RequestNotes.use((notes) => notes.spoke(vocabulary)), Canonical.tagChannels(operation, request))

/** `/api/v1/channels/tag`, shared by both vocabularies: its body is read in either (src/api/ChannelTags.ts). */
export const channelTagRoutes = bindGroup(channelTags, {
  add_channel_tags: ({ body }) => tagChannels("add", body),
  remove_channel_tags: ({ body }) => tagChannels("remove", body)
})
