import { vocabularyA } from "../../api/VocabularyA.ts"
import { bindGroup } from "../Handlers.ts"
import * as Gateway from "./Gateway.ts"

/** Vocabulary A's handlers, bound to its endpoints (src/api/VocabularyA.ts). A passes no user to the adapters. */
export const vocabularyARoutes = bindGroup(vocabularyA, {
  get_nodes: ({ body }) => Gateway.listServices(body),
  put_node_tag: ({ body }) => Gateway.tagServices("add", body),
  delete_node_tag: ({ body }) => Gateway.tagServices("remove", body),
  get_input_channels: ({ body }) => Gateway.listChannels(body),
  get_output_channels: ({ body }) => Gateway.listChannels(body),
  get_channel_value: ({ body }) => Gateway.fetchValues(body, Gateway.anonymous),
  put_channel_value: ({ body }) => Gateway.sendValues(body, Gateway.anonymous)
})
