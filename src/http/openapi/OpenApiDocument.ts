import * as EffectJsonSchema from "effect/JsonSchema"
import * as Option from "effect/Option"
import * as Order from "effect/Order"
import * as Schema from "effect/Schema"
import * as SchemaRepresentation from "effect/SchemaRepresentation"
import { type Access, rightOf } from "../../api/Access.ts"
import type { DocumentedLimits, Method, RouteOf, Tag, Text } from "../../api/Endpoint.ts"
import type { Right } from "../../domain/Access.ts"
import { maxWatchSocketsPerToken, maxWatchSocketsPerUser } from "../../auth/LiveSockets.ts"
import { WATCH_QUEUE_LIMIT, WATCH_QUEUE_RESUME } from "../../gateway/WatchQueue.ts"
import { defaultGatewayOptions } from "../../GatewayOptions.ts"
import { ErrorMessageJson } from "../routing/HttpError.ts"
import { maxBodyDepth } from "../body/RequestLimits.ts"
import { foldAnnotations } from "./FoldedAnnotations.ts"

/**
 * The OpenAPI 3.1 document of the REST API (docs/reference.md §6). Its `paths` hold exactly the routes
 * given, each described by its endpoint (src/api; the reads are GETs with a JSON body, which HttpApi
 * cannot declare); their JSON Schemas are derived from the wire schemas the routes read and answer
 * with, named in `components` by their `identifier` annotations.
 */

type JsonSchema = EffectJsonSchema.JsonSchema

/** Named schemas, as they sit in `components.schemas`. */
export type Components = EffectJsonSchema.Definitions

export interface MediaType {
  readonly schema: JsonSchema
}

export interface Response {
  readonly description: string
  readonly headers?: Readonly<Record<string, { readonly description: string; readonly schema: JsonSchema }>>
  readonly content?: Readonly<Record<string, MediaType>>
}

export interface Reference {
  readonly $ref: string
}

/** Each alternative: the schemes a request uses together (`{}`: none). */
export type Security = ReadonlyArray<Readonly<Record<string, ReadonlyArray<string>>>>

export interface Operation {
  readonly operationId: string
  readonly summary: string
  readonly description: string
  readonly tags: ReadonlyArray<Tag>
  readonly parameters?: ReadonlyArray<{
    readonly name: string
    readonly in: "query"
    readonly required: boolean
    readonly description: string
    readonly schema: JsonSchema
  }>
  readonly requestBody?: {
    readonly description: string
    readonly required: boolean
    readonly content: Readonly<Record<string, MediaType>>
  }
  readonly responses: Readonly<Record<string, Response | Reference>>
  readonly security?: Security
  /** The right of a token the operation needs (docs/auth.md); OpenAPI's scopes are OAuth's, not these. */
  readonly "x-required-right"?: Right
  /** A WebSocket route: the JSON frames each side sends (OpenAPI has no words for them). */
  readonly "x-websocket"?: { readonly clientFrames: JsonSchema; readonly serverFrames: JsonSchema }
}

export type PathItem = { readonly [M in Lowercase<Method>]?: Operation }

export interface OpenApiDocument {
  readonly openapi: "3.1.0"
  readonly info: { readonly title: string; readonly version: string; readonly description: string }
  readonly tags: ReadonlyArray<{ readonly name: Tag; readonly description: string }>
  readonly paths: Readonly<Record<string, PathItem>>
  readonly components: {
    readonly schemas: Components
    readonly responses: Readonly<Record<string, Response>>
    readonly securitySchemes: Readonly<Record<string, SecurityScheme>>
  }
}

export type SecurityScheme =
  | { readonly type: "http"; readonly scheme: "bearer"; readonly description: string }
  | { readonly type: "apiKey"; readonly in: "query"; readonly name: string; readonly description: string }

const securitySchemes: Readonly<Record<string, SecurityScheme>> = {
  bearer: { type: "http", scheme: "bearer", description: "A token: `Authorization: Bearer <token>` (docs/auth.md)." },
  authQuery: { type: "apiKey", in: "query", name: "auth", description: "The same token as `?auth=<token>`, where a header cannot be set." }
}

/** A token, in either form; from the machine itself, none at all when the server says so (`{}`: no security). */
const securityOf = (access: Access): Security | undefined => {
  switch (access._tag) {
    case "Open":
      return undefined
    case "Token":
    case "Right":
      return [{ bearer: [] }, { authQuery: [] }]
    case "RightOrLoopback":
      return [{ bearer: [] }, { authQuery: [] }, {}]
  }
}

/** The security of an operation, the right it needs (`x-required-right`), and the refusals they bring. */
const accessOf = (access: Access): Pick<Operation, "security" | "x-required-right"> => {
  const security = securityOf(access)
  const right = rightOf(access)
  return { ...(security === undefined ? {} : { security }), ...(right === undefined ? {} : { "x-required-right": right }) }
}

const refusalsOf = (access: Access): Operation["responses"] => ({
  ...(access._tag === "Open" ? {} : { "401": responseRef("Unauthorized") }),
  ...(rightOf(access) === undefined ? {} : { "403": responseRef("Forbidden") })
})

const json = (schema: JsonSchema): Readonly<Record<string, MediaType>> => ({ "application/json": { schema } })

const errorMessage: JsonSchema = { $ref: "#/components/schemas/ErrorMessage" }

const errorResponse = (description: string, headers?: Response["headers"]): Response => ({
  description,
  ...(headers === undefined ? {} : { headers }),
  content: json(errorMessage)
})

const text: JsonSchema = { type: "string" }

const errorResponses = {
  BadRequest: errorResponse(
    `Malformed request: JSON syntax, shape, unknown field, invalid value or identifier, nesting past ${maxBodyDepth} levels, ` +
      "or an unknown or bad query parameter (`vocabulary` and `auth` are known on every path, others where a route lists them). " +
      "Nothing was written or tagged."
  ),
  NotFound: errorResponse("No such path (other `/api/vN` prefixes and trailing slashes included)."),
  MethodNotAllowed: errorResponse("The path exists, but not with this method.", {
    Allow: { description: "The methods the path answers, e.g. `GET, POST`.", schema: text }
  }),
  PayloadTooLarge: errorResponse(
    `The body is over the limit (${defaultGatewayOptions.maxBodyBytes} bytes unless \`--max-body-bytes\` says otherwise).`
  ),
  Unauthorized: errorResponse("No token, or a malformed, unknown, expired or revoked one.", {
    "WWW-Authenticate": { description: "`Bearer`.", schema: text }
  }),
  Forbidden: errorResponse("The token's scope does not grant the right this operation needs.")
} as const

/** A 413 of a route with a body limit of its own (the server's limit is lower still if `--max-body-bytes` says so). */
const ownBodyLimit = (bytes: number): Response =>
  errorResponse(`The body is over this route's limit, ${bytes} bytes (or \`--max-body-bytes\` if lower).`)

const responseRef = (name: keyof typeof errorResponses): Reference => ({ $ref: `#/components/responses/${name}` })

const tags: OpenApiDocument["tags"] = [
  { name: "vocabulary B", description: "The API FoxBox served: services, getters and setters." },
  { name: "vocabulary A", description: "The first FoxBox draft: nodes, inputs and outputs. Same ids, same data." },
  { name: "shared", description: "`/api/v1/channels/tag`, which reads a body of either vocabulary." },
  { name: "watching", description: "The watch WebSocket, in either vocabulary (docs/reference.md §7, docs/watching.md)." },
  { name: "health", description: "Liveness." },
  { name: "documentation", description: "This document." },
  { name: "users", description: "Setup, login and logout, at the root; no token needed for setup and login." },
  { name: "tokens", description: "The caller's tokens: list, create, revoke (a token creates only tokens within its own reach)." },
  { name: "metrics", description: "The gateway's metrics for Prometheus, at the root (docs/configuration.md)." }
]

const info: OpenApiDocument["info"] = {
  title: "Home gateway REST API",
  version: "1",
  description: "Two vocabularies over one model: a thing tagged or written through one is seen through the other. " +
    "Success is 200 with JSON. Every error answer's body is a JSON string a person can read, for the statuses " +
    "listed per operation and for the others (429, 500, 503) alike. Every `/api/v1` operation needs a token. The watch WebSocket " +
    "(`/api/v1/channels/watch`) lists its frames under `x-websocket`."
}

/** Said once here rather than in every read's description. */
const bodyOnGet = " A GET carries it as a JSON body, which OpenAPI 3.1 allows."

/** The JSON Schema of a wire schema, as compiled with all the others (see `compile`). */
type Compiled = (schema: Schema.Top) => JsonSchema

/** The limits the documentation states: the server's defaults. */
const limits: DocumentedLimits = {
  watchPingSeconds: defaultGatewayOptions.watchPingMs / 1000,
  watchQueueLimit: WATCH_QUEUE_LIMIT,
  watchQueueResume: WATCH_QUEUE_RESUME,
  watchSocketsPerToken: maxWatchSocketsPerToken,
  watchSocketsPerUser: maxWatchSocketsPerUser
}

const textOf = (text: Text): string => (typeof text === "string" ? text : text(limits))

const toOperation = ({ method, endpoint: e, alias }: RouteOf, compiled: Compiled): Operation => ({
  operationId: alias === undefined ? e.operationId : `${e.operationId}_alias_${alias.suffix}`,
  summary: alias === undefined ? e.summary : `${e.summary} (alias)`,
  description: alias === undefined ? textOf(e.description) : `${alias.why} ${textOf(e.description)}`,
  tags: [e.tag],
  ...(Object.keys(e.query).length === 0
    ? {}
    : {
      parameters: Object.entries(e.query).map(([name, q]) => ({
        name,
        in: "query" as const,
        required: false,
        description: q.description,
        schema: compiled(q.schema)
      }))
    }),
  ...(e.body === undefined
    ? {}
    : {
      requestBody: {
        description: method === "GET" ? `${e.body.description}${bodyOnGet}` : e.body.description,
        required: Option.isNone(e.body.whenAbsent),
        content: json(compiled(e.body.schema))
      }
    }),
  ...accessOf(e.access),
  ...(e.upgrade === undefined
    ? {}
    : { "x-websocket": { clientFrames: compiled(e.upgrade.clientFrames), serverFrames: compiled(e.upgrade.serverFrames) } }),
  responses: {
    ...(e.upgrade !== undefined ? upgradeResponses(e.answer.description) : {
      [String(e.answer.status)]: {
        description: e.answer.description,
        // HEAD is answered as GET is, without the body.
        ...(e.answer.shape === undefined || method === "HEAD"
          ? {}
          : { content: { [e.answer.mediaType ?? "application/json"]: { schema: compiled(e.answer.shape.wire) } } })
      }
    }),
    // Any route refuses an unknown query parameter; one that reads a body, a malformed body too.
    "400": responseRef("BadRequest"),
    ...refusalsOf(e.access),
    "404": responseRef("NotFound"),
    "405": responseRef("MethodNotAllowed"),
    ...Object.fromEntries(Object.entries(e.errors).map(([status, description]) => [status, errorResponse(textOf(description))])),
    ...(e.body === undefined ? {} : { "413": e.bodyLimit === undefined ? responseRef("PayloadTooLarge") : ownBodyLimit(e.bodyLimit) })
  }
})

/** A WebSocket route answers 101, or 426 to a request without the upgrade, or 400 to a bad query. */
const upgradeResponses = (switched: string): Operation["responses"] => ({
  "101": { description: switched },
  "400": responseRef("BadRequest"),
  "404": responseRef("NotFound"),
  "405": responseRef("MethodNotAllowed"),
  "426": errorResponse("Not a WebSocket upgrade request.", {
    Upgrade: { description: "`websocket`.", schema: text }
  })
})

const methodOrder: ReadonlyArray<Method> = ["GET", "HEAD", "PUT", "POST", "DELETE", "PATCH"]

/** Every wire schema the endpoints of `routes` name, each once. */
const schemasOf = (routes: ReadonlyArray<RouteOf>): ReadonlyArray<Schema.Top> => {
  const schemas = new Set<Schema.Top>([ErrorMessageJson])
  for (const { endpoint: e } of routes) {
    for (const q of Object.values(e.query)) schemas.add(q.schema)
    if (e.body !== undefined) schemas.add(e.body.schema)
    if (e.answer.shape !== undefined) schemas.add(e.answer.shape.wire)
    if (e.upgrade !== undefined) schemas.add(e.upgrade.serverFrames).add(e.upgrade.clientFrames)
  }
  return [...schemas]
}

/**
 * The JSON Schemas of `schemas` (their JSON side, as clients write and read it), compiled together so
 * that the shapes they share are one component each, named by their `identifier` annotation.
 */
const compile = (schemas: ReadonlyArray<Schema.Top>): { readonly compiled: Compiled; readonly components: Components } => {
  const [first, ...others] = schemas.map((schema) => Schema.toCodecJson(schema).ast)
  if (first === undefined) return { compiled: () => ({}), components: {} }
  const document = EffectJsonSchema.toMultiDocumentOpenApi3_1(SchemaRepresentation.toJsonSchemaMultiDocument(
    SchemaRepresentation.toRepresentations([first, ...others]),
    { onExcessProperty: "error" }
  ))
  const bySchema = new Map(schemas.map((schema, i) => [schema, foldAnnotations(document.schemas[i] ?? {})] as const))
  const components = Object.fromEntries(Object.entries(document.definitions).map(([name, schema]) => [name, foldAnnotations(schema)]))
  return { compiled: (schema) => bySchema.get(schema) ?? {}, components }
}

/**
 * The document of `routes`. Paths are sorted, methods in a fixed order, so the document does not depend
 * on the order the route modules are listed in.
 */
export const openApiDocument = (routes: ReadonlyArray<RouteOf>): OpenApiDocument => {
  const { compiled, components } = compile(schemasOf(routes))
  const byPath = new Map<string, Map<Method, Operation>>()
  for (const route of routes) {
    byPath.set(route.path, (byPath.get(route.path) ?? new Map<Method, Operation>()).set(route.method, toOperation(route, compiled)))
  }
  const paths = [...byPath].sort(Order.mapInput(Order.String, ([path]: readonly [string, unknown]) => path)).map(([path, methods]) => {
    const item: PathItem = Object.fromEntries(
      methodOrder.flatMap((m) => {
        const operation = methods.get(m)
        return operation === undefined ? [] : [[m.toLowerCase(), operation] as const]
      })
    )
    return [path, item] as const
  })

  return {
    openapi: "3.1.0",
    info,
    tags,
    paths: Object.fromEntries(paths),
    components: { schemas: components, responses: errorResponses, securitySchemes }
  }
}
