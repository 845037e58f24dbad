import { Effect, Option } from "effect"
import type { TagOperation } from "../../domain/Request.ts"
import { anyService, type ChannelSelector, everyGetter, everySetter } from "../../domain/Selector.ts"
import * as B from "../../vocabulary/b/index.ts"
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
  const selectors = yield* decodeBody(B.decodeServiceSelectors, Option.some([anyService]))
  return ok(B.encodeServices(yield* Gateway.listServices(selectors)))
})

const listChannels = (decode: BodyDecoder<Selectors>, every: ChannelSelector) =>
  Effect.gen(function*() {
    const selectors = yield* decodeBody(decode, Option.some([every]))
    return ok(B.encodeChannels(yield* Gateway.listChannels(selectors)))
  })

const tagServices = (operation: TagOperation) =>
  Effect.gen(function*() {
    const request = yield* decodeBody(B.decodeServiceTagBody)
    return ok(yield* Gateway.tagServices(operation, request))
  })

/** The getter-only and setter-only tag aliases (`/channels/getter/tags`, `/channels/setter/tags`). */
const tagChannelsAlias = (operation: TagOperation, decode: typeof B.decodeGetterTagBody) =>
  Effect.gen(function*() {
    const request = yield* decodeBody(decode)
    return ok(yield* Gateway.tagChannels(operation, request))
  })

const fetchValues = Effect.gen(function*() {
  const selectors = yield* decodeBody(B.decodeFetchBody, Option.some([everyGetter]))
  return yield* fetchResponse(yield* Gateway.fetchValues(selectors, caller), B.encodeFetchResults)
})

const sendValues = Effect.gen(function*() {
  const targets = yield* decodeBody(B.decodeSendBody)
  return ok(B.encodeSendResults(yield* Gateway.sendValues(targets, caller)))
})

/** Vocabulary B's routes (docs/reference.md §6.2), aliases included. The shared `/channels/tag` path is in ChannelTagRoutes. */
export const vocabularyBRoutes = [
  ...on(["GET", "POST"], "/api/v1/services", listServices),
  ...on(["POST"], "/api/v1/services/tag", tagServices("add")),
  ...on(["DELETE"], "/api/v1/services/tag", tagServices("remove")),
  ...on(["POST"], "/api/v1/services/tags", tagServices("add")),
  ...on(["DELETE"], "/api/v1/services/tags", tagServices("remove")),
  ...on(["GET", "POST"], "/api/v1/channels/getters", listChannels(B.decodeGetterSelectors, everyGetter)),
  ...on(["GET", "POST"], "/api/v1/channels/setters", listChannels(B.decodeSetterSelectors, everySetter)),
  ...on(["POST"], "/api/v1/channels/getter/tags", tagChannelsAlias("add", B.decodeGetterTagBody)),
  ...on(["DELETE"], "/api/v1/channels/getter/tags", tagChannelsAlias("remove", B.decodeGetterTagBody)),
  ...on(["POST"], "/api/v1/channels/setter/tags", tagChannelsAlias("add", B.decodeSetterTagBody)),
  ...on(["DELETE"], "/api/v1/channels/setter/tags", tagChannelsAlias("remove", B.decodeSetterTagBody)),
  ...on(["GET", "PUT", "POST"], "/api/v1/channels/get", fetchValues),
  ...on(["PUT"], "/api/v1/channels/set", sendValues)
]
