import { Effect, Option } from "effect"
import type { TagOperation } from "../../domain/Request.ts"
import { anyService, type ChannelSelector, everyGetter, everySetter } from "../../domain/Selector.ts"
import * as A from "../../vocabulary/a/index.ts"
import { decode } from "../../vocabulary/common/WireIssue.ts"
import { fetchResponse } from "../ContentNegotiation.ts"
import { type BodyDecoder, decodeBody } from "../RequestBody.ts"
import { ok, route } from "../RouteTable.ts"
import * as Gateway from "./Gateway.ts"

type Selectors = ReadonlyArray<ChannelSelector>

const getNodes = Effect.gen(function*() {
  const selectors = yield* decodeBody((json) => decode(A.NodeSelectorsJson, json), Option.some([anyService]))
  return ok(A.NodesJson.write(yield* Gateway.listServices(selectors)))
})

const tagNodes = (operation: TagOperation) =>
  Effect.gen(function*() {
    const request = yield* decodeBody((json) => decode(A.NodeTagBodyJson, json))
    return ok(yield* Gateway.tagServices(operation, request))
  })

const getChannels = (read: BodyDecoder<Selectors>, every: ChannelSelector) =>
  Effect.gen(function*() {
    const selectors = yield* decodeBody(read, Option.some([every]))
    return ok(A.ChannelsJson.write(yield* Gateway.listChannels(selectors)))
  })

const getChannelValue = Effect.gen(function*() {
  const selectors = yield* decodeBody((json) => decode(A.GetSelectorsJson, json), Option.some([everyGetter]))
  return yield* fetchResponse(yield* Gateway.fetchValues(selectors, Gateway.anonymous), A.FetchResultsJson.write)
})

const putChannelValue = Effect.gen(function*() {
  const targets = yield* decodeBody((json) => decode(A.PutValueBodyJson, json))
  return ok(A.SendResultsJson.write(yield* Gateway.sendValues(targets, Gateway.anonymous)))
})

/** Vocabulary A's routes (docs/reference.md §6.3). The shared `/channels/tag` path is in ChannelTagRoutes. */
export const vocabularyARoutes = [
  route("GET", "/api/v1/nodes", getNodes),
  route("POST", "/api/v1/nodes/tag", tagNodes("add")),
  route("DELETE", "/api/v1/nodes/tag", tagNodes("remove")),
  route("GET", "/api/v1/channels", getChannels((json) => decode(A.GetSelectorsJson, json), everyGetter)),
  route("GET", "/api/v1/channels/inputs", getChannels((json) => decode(A.GetSelectorsJson, json), everyGetter)),
  route("GET", "/api/v1/channels/outputs", getChannels((json) => decode(A.SetSelectorsJson, json), everySetter)),
  route("GET", "/api/v1/channels/value", getChannelValue),
  route("POST", "/api/v1/channels/value", putChannelValue)
]
