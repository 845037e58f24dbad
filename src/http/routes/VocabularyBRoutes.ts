import { Effect } from "effect"
import { vocabularyB } from "../../api/VocabularyB.ts"
import * as B from "../../vocabulary/b/index.ts"
import { fetchResponse } from "../ContentNegotiation.ts"
import { bindGroup } from "../Handlers.ts"
import { ok } from "../RouteTable.ts"
import * as Gateway from "./Gateway.ts"

/** Vocabulary B's fetch and send pass the authenticated user to the adapters (docs/reference.md §8). */
const caller = Gateway.authenticatedUser

/** Vocabulary B's handlers, bound to its endpoints (src/api/VocabularyB.ts). */
export const vocabularyBRoutes = bindGroup(vocabularyB, {
  get_services: ({ body }) => Effect.map(Gateway.listServices(body), (services) => ok(B.encodeServices(services))),
  add_service_tags: ({ body }) => Effect.map(Gateway.tagServices("add", body), ok),
  remove_service_tags: ({ body }) => Effect.map(Gateway.tagServices("remove", body), ok),
  get_getter_channels: ({ body }) => Effect.map(Gateway.listChannels(body), (channels) => ok(B.encodeChannels(channels))),
  get_setter_channels: ({ body }) => Effect.map(Gateway.listChannels(body), (channels) => ok(B.encodeChannels(channels))),
  add_channel_tags_alias_getters: ({ body }) => Effect.map(Gateway.tagChannels("add", body), ok),
  remove_channel_tags_alias_getters: ({ body }) => Effect.map(Gateway.tagChannels("remove", body), ok),
  add_channel_tags_alias_setters: ({ body }) => Effect.map(Gateway.tagChannels("add", body), ok),
  remove_channel_tags_alias_setters: ({ body }) => Effect.map(Gateway.tagChannels("remove", body), ok),
  fetch_values: ({ body }) => Effect.flatMap(Gateway.fetchValues(body, caller), (results) => fetchResponse(results, B.encodeFetchResults)),
  send_values: ({ body }) => Effect.map(Gateway.sendValues(body, caller), (results) => ok(B.encodeSendResults(results)))
})
