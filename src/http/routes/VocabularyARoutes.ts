import type * as Context from "effect/Context"
import { vocabularyA } from "../../api/VocabularyA.ts"
import { bindGroup } from "../routing/Handlers.ts"
import * as Canonical from "./CanonicalCalls.ts"

/** Vocabulary A's handlers, bound to its endpoints (src/api/VocabularyA.ts). A passes no user to the adapters. */
export const vocabularyARoutes = bindGroup(vocabularyA, {
  get_nodes: ({ body }) => Canonical.listServices(body),
  put_node_tag: ({ body }) => Canonical.tagServices("add", body),
  delete_node_tag: ({ body }) => Canonical.tagServices("remove", body),
  get_input_channels: ({ body }) => Canonical.listChannels(body),
  get_output_channels: ({ body }) => Canonical.listChannels(body),
  get_channel_value: ({ body }, context: Context.Context<Canonical.ValueCallNeeds>) => Canonical.fetchValues(body, Canonical.anonymous, context),
  put_channel_value: ({ body }, context: Context.Context<Canonical.ValueCallNeeds>) => Canonical.sendValues(body, Canonical.anonymous, context)
})
