import type * as Option from "effect/Option"
import type * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import type { BinaryValue } from "../domain/Outcome.ts"
import type { Decoded } from "../vocabulary/common/InvalidInput.ts"
import type { Unexpressible } from "../vocabulary/common/Unexpressible.ts"
import type { Access } from "./Access.ts"

/**
 * A route of the API described once, as a value: its method and path (and the aliases it is also
 * answered at), who may call it (`access`), its query parameters and body (and the most bytes of it read) (the wire schema a client sends, and how the server reads
 * it), its answer (status, and the shape that writes it) and error statuses, and the words of its
 * documentation. The server's router, body reading, answer writing, OpenAPI operation and request log
 * come from it (src/http binds a handler to it), and so do a client's requests (src/client: a body written
 * with `Body.write`, an answer read with `AnswerShape.read`). src/api imports only
 * `effect`, the vocabularies and the domain, so a browser bundle can carry it.
 */

export type Method = "GET" | "HEAD" | "POST" | "PUT" | "DELETE" | "PATCH"

export type Path = `/${string}`

/** The group an operation is listed under in the document; the request log names its vocabulary from it. */
export type Tag =
  | "vocabulary B"
  | "vocabulary A"
  | "shared"
  | "watching"
  | "health"
  | "documentation"
  | "users"
  | "tokens"
  | "metrics"

/** Limits of the server that some documentation states; the server gives its own when it builds the document. */
export interface DocumentedLimits {
  readonly watchPingSeconds: number
  readonly watchQueueLimit: number
  readonly watchQueueResume: number
  readonly watchSocketsPerToken: number
  readonly watchSocketsPerUser: number
}

/** Documentation, fixed or stating the server's limits. */
export type Text = string | ((limits: DocumentedLimits) => string)

/** A query parameter: its schema (for the document) and how a value of it is read. */
export interface QueryParameter<A> {
  readonly schema: Schema.Top
  readonly description: string
  readonly read: (text: string) => Decoded<A>
}

export type QueryParameters = { readonly [name: string]: QueryParameter<unknown> }

/** The values of a request's query parameters, each absent when the request has none. */
export type QueryValues<Q extends QueryParameters> = {
  readonly [K in keyof Q]?: Q[K] extends QueryParameter<infer A> ? A : never
}

/** A request body: the wire schema a client sends (and the document shows), how the server reads it and a client writes it. */
export interface Body<B, Q extends QueryParameters> {
  readonly schema: Schema.Top
  readonly description: string
  /** What a request without a body means (a read's "everything"); none, and a body is required. */
  readonly whenAbsent: Option.Option<B>
  // A method, so that an endpoint reading more query parameters is still an `Endpoint` of any query.
  read(json: unknown, query: QueryValues<Q>): Decoded<B>
  /** The JSON of `value` for a request with `query`, or why the body's vocabulary cannot say it. */
  write(value: B, query: QueryValues<Q>): Result.Result<unknown, Unexpressible>
}

/**
 * How a success's JSON body is written from what the handler answers, and read back by a client: a wire
 * shape of src/vocabulary, or `plain` JSON.
 */
export interface AnswerShape<A> {
  readonly wire: Schema.Top
  // Methods, so that an endpoint answering anything is still an `Endpoint` (see `Body.read`).
  write(value: A): unknown
  /** The answer read from JSON that `wire` accepted (a client checks it with `wire` first). */
  read(json: unknown): A
  /** The JSON text of an answer in pieces made as they are read, where the shape writes it so (a list, which may be long). */
  jsonText?(value: A): Iterable<string>
}

/** A success: its status and, if it has a body, the shape of its JSON. */
export interface Answer<A> {
  readonly status: 101 | 200 | 201 | 204
  readonly description: string
  readonly shape?: AnswerShape<A>
  /** The body's media type when it is not JSON: what the shape writes is then the body's text. */
  readonly mediaType?: string
  /** A read of values answered with one Binary value's bytes when `Accept` prefers its mimetype (docs/reference.md §6.6). */
  rawBinary?(value: A): Option.Option<BinaryValue>
}

/** A WebSocket route: the JSON frames each side sends once the connection is upgraded (answered 101). */
export interface Upgrade {
  readonly clientFrames: Schema.Top
  readonly serverFrames: Schema.Top
}

/** The same operation at another method or path (`_alias_<suffix>` in the document), with why it exists. */
export interface Alias {
  readonly method?: Method
  readonly path?: Path
  readonly suffix: string
  readonly why: string
}

/**
 * Its type keeps what a handler and the server need to know of it: its id, its query parameters,
 * whether it reads a body (and into what), what it answers, and whether it is a WebSocket.
 */
export interface Endpoint<
  Id extends string = string,
  Q extends QueryParameters = QueryParameters,
  Bd extends Body<unknown, Q> | undefined = Body<unknown, Q> | undefined,
  An extends Answer<unknown> = Answer<unknown>,
  U extends Upgrade | undefined = Upgrade | undefined
> {
  readonly operationId: Id
  readonly method: Method
  readonly path: Path
  readonly access: Access
  readonly aliases: ReadonlyArray<Alias>
  readonly tag: Tag
  readonly summary: string
  readonly description: Text
  readonly query: Q
  readonly body: Bd
  /** The most bytes of a body read at this route (413 beyond); `undefined`: the server's `--max-body-bytes`. */
  readonly bodyLimit: number | undefined
  readonly answer: An
  /** Statuses of this route's own refusals, with their meaning (those of every route are the document's). */
  readonly errors: { readonly [status: string]: Text }
  readonly upgrade: U
}

/** What the body of a request to `E` is read into; `undefined` when `E` reads none. */
export type BodyOf<E extends Endpoint> = E["body"] extends Body<infer B, QueryParameters> ? B : undefined

/** What a handler of `E` answers, which the endpoint's answer shape writes; nothing when the answer has no body. */
// biome-ignore lint/suspicious/noConfusingVoidType: a handler of an answer without a body returns an Effect of void
export type AnswerOf<E extends Endpoint> = E["answer"] extends { readonly shape: AnswerShape<infer A> } ? A : void

/**
 * An endpoint; what it leaves out it does not have (no alias, no query parameter, no body, no error of its
 * own, no body limit of its own). Its access it must say.
 */
export const endpoint = <
  const Id extends string,
  Q extends QueryParameters = {},
  Bd extends Body<unknown, Q> | undefined = undefined,
  An extends Answer<unknown> = Answer<void>,
  U extends Upgrade | undefined = undefined
>(description: {
  readonly operationId: Id
  readonly method: Method
  readonly path: Path
  readonly access: Access
  readonly aliases?: ReadonlyArray<Alias>
  readonly tag: Tag
  readonly summary: string
  readonly description: Text
  readonly query?: Q
  readonly body?: Bd
  /** Fewer bytes than the server's `--max-body-bytes` (which bounds every route). */
  readonly bodyLimit?: number
  readonly answer: An
  readonly errors?: { readonly [status: string]: Text }
  readonly upgrade?: U
}): Endpoint<Id, Q, Bd, An, U> => ({
  ...description,
  aliases: description.aliases ?? [],
  query: description.query ?? ({} as Q),
  // Left out, they are `undefined`: what their type parameters then default to.
  body: description.body as Bd,
  bodyLimit: description.bodyLimit,
  errors: description.errors ?? {},
  upgrade: description.upgrade as U
})

/**
 * The body limit of the routes open to anyone (`bodyLimit`): what they read (a first user, at most) is
 * small, and anyone may send it.
 */
export const openBodyLimit = 8 * 1024

/** Endpoints by operation id: one group of the API, to which handlers are bound by name. */
export type Group = { readonly [operationId: string]: Endpoint }

export const group = <const Endpoints extends ReadonlyArray<Endpoint>>(
  ...endpoints: Endpoints
): { readonly [E in Endpoints[number] as E["operationId"]]: E } =>
  Object.fromEntries(endpoints.map((e) => [e.operationId, e])) as { readonly [E in Endpoints[number] as E["operationId"]]: E }

/** One method and path an endpoint is answered at: its own, or one of its aliases. */
export interface RouteOf {
  readonly method: Method
  readonly path: Path
  readonly endpoint: Endpoint
  readonly alias: Alias | undefined
}

/** Every method and path `endpoint` is answered at, its own first. */
export const routesOf = (endpoint: Endpoint): ReadonlyArray<RouteOf> => [
  { method: endpoint.method, path: endpoint.path, endpoint, alias: undefined },
  ...endpoint.aliases.map((alias) => ({
    method: alias.method ?? endpoint.method,
    path: alias.path ?? endpoint.path,
    endpoint,
    alias
  }))
]
