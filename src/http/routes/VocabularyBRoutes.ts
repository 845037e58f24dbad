import { Effect, Option } from "effect"
import type { TagOperation, TagRequest } from "../../domain/Request.ts"
import { anyService, type ChannelSelector, everyGetter, everySetter } from "../../domain/Selector.ts"
import * as B from "../../vocabulary/b/index.ts"
import { decode } from "../../vocabulary/common/WireIssue.ts"
import { fetchResponse } from "../ContentNegotiation.ts"
import { type BodyDecoder, decodeBody } from "../RequestBody.ts"
import { type Method, ok, type Route, route } from "../RouteTable.ts"
import * as Gateway from "./Gateway.ts"

/** Vocabulary B's fetch and send pass the authenticated user to the adapters (docs/reference.md §8). */
const caller = Gateway.authenticatedUser

type Selectors = ReadonlyArray<ChannelSelector>

const on = <R>(methods: ReadonlyArray<Method>, path: `/${string}`, handler: Route<R>["handler"]) =>
  methods.map((method) => route(method, path, handler))

const listServices = Effect.gen(function*() {
  const selectors = yield* decodeBody((json) => decode(B.ServiceSelectorsJson, json), Option.some([anyService]))
  return ok(B.ServicesJson.write(yield* Gateway.listServices(selectors)))
})

const listChannels = (read: BodyDecoder<Selectors>, every: ChannelSelector) =>
  Effect.gen(function*() {
    const selectors = yield* decodeBody(read, Option.some([every]))
    return ok(B.ChannelsJson.write(yield* Gateway.listChannels(selectors)))
  })

const tagServices = (operation: TagOperation) =>
  Effect.gen(function*() {
    const request = yield* decodeBody((json) => decode(B.ServiceTagBodyJson, json))
    return ok(yield* Gateway.tagServices(operation, request))
  })

/** The getter-only and setter-only tag aliases (`/channels/getter/tags`, `/channels/setter/tags`). */
const tagChannelsAlias = (operation: TagOperation, read: BodyDecoder<TagRequest<ChannelSelector>>) =>
  Effect.gen(function*() {
    const request = yield* decodeBody(read)
    return ok(yield* Gateway.tagChannels(operation, request))
  })

const fetchValues = Effect.gen(function*() {
  const selectors = yield* decodeBody((json) => decode(B.GetterSelectorsJson, json), Option.some([everyGetter]))
  return yield* fetchResponse(yield* Gateway.fetchValues(selectors, caller), B.FetchResultsJson.write)
})

const sendValues = Effect.gen(function*() {
  const targets = yield* decodeBody((json) => decode(B.SendBodyJson, json))
  return ok(B.SendResultsJson.write(yield* Gateway.sendValues(targets, caller)))
})

/** Vocabulary B's routes (docs/reference.md §6.2), aliases included. The shared `/channels/tag` path is in ChannelTagRoutes. */
export const vocabularyBRoutes = [
  ...on(["GET", "POST"], "/api/v1/services", listServices),
  ...on(["POST"], "/api/v1/services/tag", tagServices("add")),
  ...on(["DELETE"], "/api/v1/services/tag", tagServices("remove")),
  ...on(["POST"], "/api/v1/services/tags", tagServices("add")),
  ...on(["DELETE"], "/api/v1/services/tags", tagServices("remove")),
  ...on(["GET", "POST"], "/api/v1/channels/getters", listChannels((json) => decode(B.GetterSelectorsJson, json), everyGetter)),
  ...on(["GET", "POST"], "/api/v1/channels/setters", listChannels((json) => decode(B.SetterSelectorsJson, json), everySetter)),
  ...on(["POST"], "/api/v1/channels/getter/tags", tagChannelsAlias("add", (json) => decode(B.GetterTagBodyJson, json))),
  ...on(["DELETE"], "/api/v1/channels/getter/tags", tagChannelsAlias("remove", (json) => decode(B.GetterTagBodyJson, json))),
  ...on(["POST"], "/api/v1/channels/setter/tags", tagChannelsAlias("add", (json) => decode(B.SetterTagBodyJson, json))),
  ...on(["DELETE"], "/api/v1/channels/setter/tags", tagChannelsAlias("remove", (json) => decode(B.SetterTagBodyJson, json))),
  ...on(["GET", "PUT", "POST"], "/api/v1/channels/get", fetchValues),
  ...on(["PUT"], "/api/v1/channels/set", sendValues)
]
