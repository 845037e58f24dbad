import { Option, Result } from "effect"
import * as A from "../../src/vocabulary/a/index.ts"
import * as B from "../../src/vocabulary/b/index.ts"
import { operationNames, type RequestB, translateToB, translations } from "../../src/api/Translation.ts"
import { withoutTimes } from "../docs/docExamples.ts"
import type { GatewayOverHttp } from "../support/gatewayOverHttp.ts"
import type { RequestA } from "./randomHomeFile.ts"
import { decode } from "../../src/vocabulary/common/WireIssue.ts"

/**
 * Sending a vocabulary A request and its B translation, and reading both answers in one language: the
 * B answer is decoded with B's codec and written again with A's, so that it can be compared with the A
 * answer (decoded and written again with A's codec) as JSON. Timestamps read as `"<time>"`.
 */

export const decoded = <X>(result: Result.Result<X, { readonly message: string }>): X => {
  if (Result.isFailure(result)) throw new Error(result.failure.message)
  return result.success
}

const count = (json: unknown): unknown => {
  if (typeof json !== "number") throw new Error(`expected a count, got ${JSON.stringify(json)}`)
  return json
}

interface Readers {
  readonly a: (json: unknown) => unknown
  readonly b: (json: unknown) => unknown
}

const channels: Readers = {
  a: (json) => A.ChannelsJson.write(decoded(decode(A.ChannelsJson, json))),
  b: (json) => A.ChannelsJson.write(decoded(decode(B.ChannelsJson, json)))
}

/** Per operation: A's answer through A's codec, and B's answer through B's decoder then A's encoder. */
const readers: Readonly<Record<string, Readers>> = {
  get_nodes: {
    a: (json) => A.NodesJson.write(decoded(decode(A.NodesJson, json))),
    b: (json) => A.NodesJson.write(decoded(decode(B.ServicesJson, json)))
  },
  get_input_channels: channels,
  get_output_channels: channels,
  get_channel_value: {
    a: (json) => A.FetchResultsJson.write(decoded(decode(A.FetchResultsJson, json))),
    b: (json) => A.FetchResultsJson.write(decoded(decode(B.FetchResultsJson, json)))
  },
  put_channel_value: {
    a: (json) => A.SendResultsJson.write(decoded(decode(A.SendResultsJson, json))),
    b: (json) => A.SendResultsJson.write(decoded(decode(B.SendResultsJson, json)))
  },
  put_node_tag: { a: count, b: count },
  delete_node_tag: { a: count, b: count },
  put_channel_tag: { a: count, b: count },
  delete_channel_tag: { a: count, b: count }
}

const canonicalName = (operation: string): string => {
  const name = operationNames[operation]
  if (name === undefined) throw new Error(`unknown vocabulary A operation ${operation}`)
  return name
}

const readerOf = (operation: string): Readers => {
  const name = canonicalName(operation)
  const found = readers[name]
  if (found === undefined) throw new Error(`no reader for ${name}`)
  return found
}

/** The B request `translateToB` gives for an A request; a request with no body translates to none. */
export const translated = (request: RequestA): RequestB =>
  decoded(translateToB(request.operation, request.body === undefined ? Option.none() : Option.some(request.body)))

export interface Exchanged {
  readonly status: number
  readonly answer: unknown
}

const answered = async (
  gateway: GatewayOverHttp,
  method: string,
  path: string,
  body: unknown,
  read: (json: unknown) => unknown
): Promise<Exchanged> => {
  const reply = await gateway.call(method, path, body)
  return { status: reply.status, answer: withoutTimes(reply.status === 200 ? read(reply.json) : reply.json) }
}

/** Sends the A request to `gateway` where its A endpoint is served. */
export const sendA = (gateway: GatewayOverHttp, request: RequestA): Promise<Exchanged> => {
  const route = translations[canonicalName(request.operation)]?.a
  if (route === undefined) throw new Error(`no A route for ${request.operation}`)
  return answered(gateway, route.method, route.path, request.body, readerOf(request.operation).a)
}

/** Sends the B request to `gateway` where it says, and reads its answer in A's words. */
export const sendB = (gateway: GatewayOverHttp, operationA: string, request: RequestB): Promise<Exchanged> =>
  answered(gateway, request.method, request.path, request.body, readerOf(operationA).b)

/** Everything a gateway holds, in A's words: every node with its channels, and every input's value. */
export const stateInA = async (gateway: GatewayOverHttp) => ({
  nodes: await sendA(gateway, { operation: "get_nodes", body: undefined }),
  values: await sendA(gateway, { operation: "get_channel_value", body: undefined })
})

/** The same, read through vocabulary B. */
export const stateThroughB = async (gateway: GatewayOverHttp) => ({
  nodes: await sendB(gateway, "get_nodes", translated({ operation: "get_nodes", body: undefined })),
  values: await sendB(gateway, "get_channel_value", translated({ operation: "get_channel_value", body: undefined }))
})
