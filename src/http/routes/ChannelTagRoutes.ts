import { Effect } from "effect"
import { channelTags } from "../../api/ChannelTags.ts"
import { bindGroup } from "../Handlers.ts"
import { ok } from "../RouteTable.ts"
import * as Gateway from "./Gateway.ts"

/** `/api/v1/channels/tag`, shared by both vocabularies: its body is read in either (src/api/ChannelTags.ts). */
export const channelTagRoutes = bindGroup(channelTags, {
  add_channel_tags: ({ body }) => Effect.map(Gateway.tagChannels("add", body), ok),
  remove_channel_tags: ({ body }) => Effect.map(Gateway.tagChannels("remove", body), ok)
})
