import { Effect, Option } from "effect"
import type { TagOperation } from "../../domain/Request.ts"
import { decodeChannelTagBody, type Vocabulary } from "../../vocabulary/ChannelTagBody.ts"
import { BadRequest } from "../HttpError.ts"
import * as Query from "../Query.ts"
import { decodeBody } from "../RequestBody.ts"
import { ok, route } from "../RouteTable.ts"
import * as Gateway from "./Gateway.ts"

/** `?vocabulary=a|b` forces how the body is read; absent, the body tells. */
export const forcedVocabulary = Effect.flatMap(Query.param("vocabulary"), (value) =>
  Option.match(value, {
    onNone: () => Effect.succeed<Vocabulary | undefined>(undefined),
    onSome: (v) =>
      v === "a" || v === "b"
        ? Effect.succeed<Vocabulary | undefined>(v)
        : Effect.fail(new BadRequest({ message: `query.vocabulary: expected "a" or "b", got ${JSON.stringify(v)}` }))
  }))

const tagChannels = (operation: TagOperation) =>
  Effect.gen(function*() {
    const forced = yield* forcedVocabulary
    const request = yield* decodeBody((json) => decodeChannelTagBody(json, forced))
    return ok(yield* Gateway.tagChannels(operation, request))
  })

/** `/api/v1/channels/tag`, shared by both vocabularies: tags channels of either mechanism. */
export const channelTagRoutes = [
  route("POST", "/api/v1/channels/tag", tagChannels("add")),
  route("DELETE", "/api/v1/channels/tag", tagChannels("remove"))
]
