import { vocabularyB } from "../../api/VocabularyB.ts"
import { bindGroup } from "../Handlers.ts"
import * as Gateway from "./Gateway.ts"

/** Vocabulary B's fetch and send pass the authenticated user to the adapters (docs/reference.md §8). */
const caller = Gateway.authenticatedUser

/** Vocabulary B's handlers, bound to its endpoints (src/api/VocabularyB.ts), which read their bodies and write their answers. */
export const vocabularyBRoutes = bindGroup(vocabularyB, {
  get_services: ({ body }) => Gateway.listServices(body),
  add_service_tags: ({ body }) => Gateway.tagServices("add", body),
  remove_service_tags: ({ body }) => Gateway.tagServices("remove", body),
  get_getter_channels: ({ body }) => Gateway.listChannels(body),
  get_setter_channels: ({ body }) => Gateway.listChannels(body),
  add_channel_tags_alias_getters: ({ body }) => Gateway.tagChannels("add", body),
  remove_channel_tags_alias_getters: ({ body }) => Gateway.tagChannels("remove", body),
  add_channel_tags_alias_setters: ({ body }) => Gateway.tagChannels("add", body),
  remove_channel_tags_alias_setters: ({ body }) => Gateway.tagChannels("remove", body),
  fetch_values: ({ body }) => Gateway.fetchValues(body, caller),
  send_values: ({ body }) => Gateway.sendValues(body, caller)
})
