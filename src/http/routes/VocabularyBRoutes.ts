import type * as Context from "effect/Context"
import { vocabularyB } from "../../api/VocabularyB.ts"
import { bindGroup } from "../routing/Handlers.ts"
import * as Canonical from "./CanonicalCalls.ts"

/** Vocabulary B's fetch and send pass the authenticated user to the adapters (docs/reference.md §8). */
const caller = Canonical.authenticatedUser

/** Vocabulary B's handlers, bound to its endpoints (src/api/VocabularyB.ts), which read their bodies and write their answers. */
export const vocabularyBRoutes = bindGroup(vocabularyB, {
  get_services: ({ body }) => Canonical.listServices(body),
  add_service_tags: ({ body }) => Canonical.tagServices("add", body),
  remove_service_tags: ({ body }) => Canonical.tagServices("remove", body),
  get_getter_channels: ({ body }) => Canonical.listChannels(body),
  get_setter_channels: ({ body }) => Canonical.listChannels(body),
  add_channel_tags_alias_getters: ({ body }) => Canonical.tagChannels("add", body),
  remove_channel_tags_alias_getters: ({ body }) => Canonical.tagChannels("remove", body),
  add_channel_tags_alias_setters: ({ body }) => Canonical.tagChannels("add", body),
  remove_channel_tags_alias_setters: ({ body }) => Canonical.tagChannels("remove", body),
  fetch_values: ({ body }, context: Context.Context<Canonical.ValueCallNeeds>) => Canonical.fetchValues(body, caller, context),
  send_values: ({ body }, context: Context.Context<Canonical.ValueCallNeeds>) => Canonical.sendValues(body, caller, context)
})
