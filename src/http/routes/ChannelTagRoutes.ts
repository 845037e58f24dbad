import { channelTags } from "../../api/ChannelTags.ts"
import { bindGroup } from "../Handlers.ts"
import * as Canonical from "./CanonicalCalls.ts"

/** `/api/v1/channels/tag`, shared by both vocabularies: its body is read in either (src/api/ChannelTags.ts). */
export const channelTagRoutes = bindGroup(channelTags, {
  add_channel_tags: ({ body }) => Canonical.tagChannels("add", body),
  remove_channel_tags: ({ body }) => Canonical.tagChannels("remove", body)
})
