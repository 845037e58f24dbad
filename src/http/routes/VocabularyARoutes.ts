import { Effect, Option } from "effect"
import type { TagOperation } from "../../domain/Request.ts"
import { anyService, type ChannelSelector, everyGetter, everySetter } from "../../domain/Selector.ts"
import * as A from "../../vocabulary/a/index.ts"
import { fetchResponse } from "../ContentNegotiation.ts"
import { type BodyDecoder, decodeBody } from "../RequestBody.ts"
import { ok, route } from "../RouteTable.ts"
import * as Gateway from "./Gateway.ts"

type Selectors = ReadonlyArray<ChannelSelector>

const getNodes = Effect.gen(function*() {
  const selectors = yield* decodeBody(A.decodeNodeSelectors, Option.some([anyService]))
  return ok(A.encodeNodes(yield* Gateway.listServices(selectors)))
})

const tagNodes = (operation: TagOperation) =>
  Effect.gen(function*() {
    const request = yield* decodeBody(A.decodeNodeTagBody)
    return ok(yield* Gateway.tagServices(operation, request))
  })

const getChannels = (decode: BodyDecoder<Selectors>, every: ChannelSelector) =>
  Effect.gen(function*() {
    const selectors = yield* decodeBody(decode, Option.some([every]))
    return ok(A.encodeChannels(yield* Gateway.listChannels(selectors)))
  })

const getChannelValue = Effect.gen(function*() {
  const selectors = yield* decodeBody(A.decodeGetValueBody, Option.some([everyGetter]))
  return yield* fetchResponse(yield* Gateway.fetchValues(selectors, Gateway.anonymous), A.encodeFetchResults)
})

const putChannelValue = Effect.gen(function*() {
  const targets = yield* decodeBody(A.decodePutValueBody)
  return ok(A.encodeSendResults(yield* Gateway.sendValues(targets, Gateway.anonymous)))
})

/** Vocabulary A's routes (docs/reference.md §6.3). The shared `/channels/tag` path is in ChannelTagRoutes. */
export const vocabularyARoutes = [
  route("GET", "/api/v1/nodes", getNodes),
  route("POST", "/api/v1/nodes/tag", tagNodes("add")),
  route("DELETE", "/api/v1/nodes/tag", tagNodes("remove")),
  route("GET", "/api/v1/channels", getChannels(A.decodeGetSelectors, everyGetter)),
  route("GET", "/api/v1/channels/inputs", getChannels(A.decodeGetSelectors, everyGetter)),
  route("GET", "/api/v1/channels/outputs", getChannels(A.decodeSetSelectors, everySetter)),
  route("GET", "/api/v1/channels/value", getChannelValue),
  route("POST", "/api/v1/channels/value", putChannelValue)
]
