import * as Result from "effect/Result"
import { channelTags } from "../api/ChannelTags.ts"
import { type Health, health } from "../api/Health.ts"
import { type CreatedToken, type NewToken, tokens, type TokenView } from "../api/Tokens.ts"
import type { Answer, AnswerShape, Body, Endpoint, QueryParameters, QueryValues } from "../api/Endpoint.ts"
import { vocabularyA } from "../api/VocabularyA.ts"
import { vocabularyB } from "../api/VocabularyB.ts"
import type { SendTarget, TagRequest } from "../domain/Request.ts"
import type { ChannelSelector, ServiceSelector } from "../domain/Selector.ts"
import type { Channel } from "../domain/Channel.ts"
import type { Service } from "../domain/Service.ts"
import type { ChannelInA, FetchResultsInA, NodeInA, SendResultsInA } from "../vocabulary/a/index.ts"
import type { TagBodyRead, Vocabulary } from "../vocabulary/ChannelTagBody.ts"
import type { Decoded } from "../vocabulary/common/InvalidInput.ts"
import type { Unexpressible } from "../vocabulary/common/Unexpressible.ts"
import { decode } from "../vocabulary/common/WireIssue.ts"
import type { Wire } from "../vocabulary/common/WireShape.ts"

/**
 * The canonical operations of the client, each bound to the route that serves it in each vocabulary
 * (src/api): the request's body is written with the route's `Body.write`, its answer read with the
 * route's answer shape. Services and channels are typed as the vocabulary says them (`S`, `C`: A's
 * views, or B's, which are the model's), read into the client's views by src/client/Views.ts; results
 * as both say them (a TypeMismatch without its types), so an app reads the same whichever it speaks.
 */

/** One operation as a client sends it: where, with which query, how its body is written and its answer read. */
export interface Operation<B, A> {
  readonly endpoint: Endpoint
  readonly query: Readonly<Record<string, string>>
  readonly write: (value: B) => Result.Result<unknown, Unexpressible>
  readonly read: (json: unknown) => Decoded<A>
}

type Described<Q extends QueryParameters, B, A> = Endpoint<string, Q, Body<B, Q>, Answer<A> & { readonly shape: AnswerShape<A> }>

/** An answer read with its shape: the shape's wire schema checks the JSON its `read` takes (src/api/Endpoint.ts). */
const answerReader = <A>(shape: AnswerShape<A>) => {
  const answer = { wire: shape.wire as Wire<unknown>, read: (json: unknown) => shape.read(json) }
  return (json: unknown): Decoded<A> => decode(answer, json, ["answer"])
}

/** A request's query parameters as the URL carries them: those it sets, as text. */
const queryText = <Q extends QueryParameters>(query: QueryValues<Q>): Readonly<Record<string, string>> =>
  Object.fromEntries(Object.entries(query).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])))

const operation = <Q extends QueryParameters, B, A>(endpoint: Described<Q, B, A>, query: QueryValues<Q>): Operation<B, A> => ({
  endpoint,
  query: queryText(query),
  write: (value) => endpoint.body.write(value, query),
  read: answerReader(endpoint.answer.shape)
})

/** One vocabulary's operations, its services read as `S` and its channels as `C`. */
export interface Operations<S, C> {
  readonly services: Operation<ReadonlyArray<ServiceSelector>, ReadonlyArray<S>>
  readonly getters: Operation<ReadonlyArray<ChannelSelector>, ReadonlyArray<C>>
  readonly setters: Operation<ReadonlyArray<ChannelSelector>, ReadonlyArray<C>>
  readonly fetch: Operation<ReadonlyArray<ChannelSelector>, FetchResultsInA>
  readonly send: Operation<ReadonlyArray<SendTarget>, SendResultsInA>
  readonly tagServices: Operation<TagRequest<ServiceSelector>, number>
  readonly untagServices: Operation<TagRequest<ServiceSelector>, number>
  readonly tagChannels: Operation<TagRequest<ChannelSelector>, number>
  readonly untagChannels: Operation<TagRequest<ChannelSelector>, number>
}

/** `/api/v1/channels/tag` is shared: the client says which vocabulary its body speaks, and writes it in that one. */
const channelTagging = (vocabulary: Vocabulary) => {
  const inVocabulary = <A>(op: Operation<TagBodyRead, A>): Operation<TagRequest<ChannelSelector>, A> => ({
    ...op,
    write: (request) => op.write({ vocabulary, request })
  })
  return {
    tagChannels: inVocabulary(operation(channelTags.add_channel_tags, { vocabulary })),
    untagChannels: inVocabulary(operation(channelTags.remove_channel_tags, { vocabulary }))
  }
}

export const operations: { readonly a: Operations<NodeInA, ChannelInA>; readonly b: Operations<Service, Channel> } = {
  a: {
    services: operation(vocabularyA.get_nodes, {}),
    getters: operation(vocabularyA.get_input_channels, {}),
    setters: operation(vocabularyA.get_output_channels, {}),
    fetch: operation(vocabularyA.get_channel_value, {}),
    send: operation(vocabularyA.put_channel_value, {}),
    tagServices: operation(vocabularyA.put_node_tag, {}),
    untagServices: operation(vocabularyA.delete_node_tag, {}),
    ...channelTagging("a")
  },
  b: {
    services: operation(vocabularyB.get_services, {}),
    getters: operation(vocabularyB.get_getter_channels, {}),
    setters: operation(vocabularyB.get_setter_channels, {}),
    fetch: operation(vocabularyB.fetch_values, {}),
    send: operation(vocabularyB.send_values, {}),
    tagServices: operation(vocabularyB.add_service_tags, {}),
    untagServices: operation(vocabularyB.remove_service_tags, {}),
    ...channelTagging("b")
  }
}

/** An operation whose answer has no body (204): it answers nothing, whatever came. */
const command = <Q extends QueryParameters, B>(endpoint: Endpoint<string, Q, Body<B, Q>>, query: QueryValues<Q>): Operation<B, void> => ({
  endpoint,
  query: {},
  write: (value) => endpoint.body.write(value, query),
  read: () => Result.succeed(undefined)
})

/** `GET /health`: open to anyone, so a client without a token may ask it. */
export const healthOperation: Operation<never, Health> = {
  endpoint: health.health,
  query: {},
  write: () => Result.succeed(undefined),
  read: answerReader(health.health.answer.shape)
}

const readTokens = answerReader(tokens.list_tokens.answer.shape)

/** The caller's tokens (`/api/v1/tokens`): the same in both vocabularies. */
export const tokenOperations: {
  /** A page of them: at most `limit`, those whose id is above `after`. */
  readonly list: (page: QueryValues<typeof tokens.list_tokens.query>) => Operation<never, ReadonlyArray<TokenView>>
  readonly create: Operation<NewToken, CreatedToken>
  readonly revoke: Operation<number, void>
} = {
  list: (page) => ({ endpoint: tokens.list_tokens, query: queryText(page), write: () => Result.succeed(undefined), read: readTokens }),
  create: operation(tokens.create_token, {}),
  revoke: command(tokens.revoke_token, {})
}
