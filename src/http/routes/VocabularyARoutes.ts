import { Effect } from "effect"
import { vocabularyA } from "../../api/VocabularyA.ts"
import * as A from "../../vocabulary/a/index.ts"
import { fetchResponse } from "../ContentNegotiation.ts"
import { bindGroup } from "../Handlers.ts"
import { ok } from "../RouteTable.ts"
import * as Gateway from "./Gateway.ts"

/** Vocabulary A's handlers, bound to its endpoints (src/api/VocabularyA.ts). A passes no user to the adapters. */
export const vocabularyARoutes = bindGroup(vocabularyA, {
  get_nodes: ({ body }) => Effect.map(Gateway.listServices(body), (services) => ok(A.encodeNodes(services))),
  put_node_tag: ({ body }) => Effect.map(Gateway.tagServices("add", body), ok),
  delete_node_tag: ({ body }) => Effect.map(Gateway.tagServices("remove", body), ok),
  get_input_channels: ({ body }) => Effect.map(Gateway.listChannels(body), (channels) => ok(A.encodeChannels(channels))),
  get_output_channels: ({ body }) => Effect.map(Gateway.listChannels(body), (channels) => ok(A.encodeChannels(channels))),
  get_channel_value: ({ body }) =>
    Effect.flatMap(Gateway.fetchValues(body, Gateway.anonymous), (results) => fetchResponse(results, A.encodeFetchResults)),
  put_channel_value: ({ body }) => Effect.map(Gateway.sendValues(body, Gateway.anonymous), (results) => ok(A.encodeSendResults(results)))
})
