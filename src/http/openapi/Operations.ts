import { Schema } from "effect"
import { SetupBodyJson } from "../../auth/Credentials.ts"
import { maxWatchSocketsPerToken } from "../../auth/LiveSockets.ts"
import { WATCH_QUEUE_LIMIT, WATCH_QUEUE_RESUME } from "../../gateway/WatchQueue.ts"
import { defaultGatewayOptions } from "../../GatewayOptions.ts"
import * as VocabularyA from "../../vocabulary/a/index.ts"
import * as VocabularyB from "../../vocabulary/b/index.ts"
import { ChannelTagBodyJson } from "../../vocabulary/ChannelTagBody.ts"
import { TagCountJson } from "../../vocabulary/common/TagCountJson.ts"
import { WatchFrameJson, WatchServerFrameJson } from "../../vocabulary/WatchFrame.ts"
import { HealthJson } from "../HealthRoutes.ts"
import type { Method } from "../RouteTable.ts"
import { SessionTokenJson } from "../routes/UserRoutes.ts"

/**
 * What each route does, for the OpenAPI document, keyed by `METHOD path` (docs/reference.md §6). The document
 * lists only the routes the server has, and a served route without an entry here is an error, so this
 * table can neither invent an operation nor silently lose one. Bodies and answers are the wire schemas
 * the routes decode and encode with: the document's JSON Schemas are derived from them.
 */

export type OperationTag = "vocabulary B" | "vocabulary A" | "shared" | "watching" | "health" | "documentation" | "users"

export interface QueryParameter {
  readonly name: string
  readonly description: string
  readonly schema: Schema.Top
}

export interface OperationDescription {
  readonly operationId: string
  readonly summary: string
  readonly description: string
  readonly tag: OperationTag
  /** Reads take an optional body (absent means everything); writes and tag operations require one. */
  readonly body?: { readonly schema: Schema.Top; readonly required: boolean; readonly description: string }
  readonly query?: ReadonlyArray<QueryParameter>
  /** A success with a JSON body (200 unless `answers.success`), or a status without one (204, or any status of a HEAD). */
  readonly response:
    | { readonly schema: Schema.Top; readonly description: string }
    | { readonly status: number; readonly description: string }
  /** The success status of a JSON answer when it is not 200, and other statuses with their meaning. */
  readonly answers?: { readonly success?: 201; readonly errors?: Readonly<Record<string, string>> }
  /**
   * The route is a WebSocket: it answers `101 Switching Protocols` (described by `response`, whose schema
   * is then that of the frames the server sends) and reads `clientFrames`.
   */
  readonly upgrade?: { readonly clientFrames: Schema.Top }
}

export type RouteKey = `${Method} /${string}`

const readBody = (schema: Schema.Top, everything: string) => ({
  schema,
  required: false,
  description: `Selectors: a thing matches if it matches any, and \`[]\` matches nothing. ` +
    `No body (or a blank one) means ${everything}.`
})

const writeBody = (schema: Schema.Top, description: string) => ({ schema, required: true, description })

/** Said of both vocabularies' reads of values (src/http/ContentNegotiation.ts). */
const loneBinary = " When the read answers exactly one channel with a Binary value and `Accept` prefers that value's " +
  "mimetype to JSON (`image/jpeg`, `image/*`), the answer is the bytes themselves with that `Content-Type`."

const tagCount = { schema: TagCountJson, description: "How many things matched any selector." }

/** `?vocabulary=a|b`. */
const VocabularyName = Schema.Literals(["a", "b"])

/** The same operation under another method or path, kept so that FoxBox's clients keep working. */
const alias = (operation: OperationDescription, suffix: string, why: string): OperationDescription => ({
  ...operation,
  operationId: `${operation.operationId}_alias_${suffix}`,
  summary: `${operation.summary} (alias)`,
  description: `${why} ${operation.description}`
})

const methodAlias = "An alias: browsers cannot send a body with GET."

// ---- vocabulary B ---------------------------------------------------------------------------------

const B = "vocabulary B"

const getServices: OperationDescription = {
  operationId: "get_services",
  summary: "List services",
  description: "The services matching any selector.",
  tag: B,
  body: readBody(VocabularyB.ServiceSelectorsJson.wire, "every service"),
  response: { schema: VocabularyB.ServicesJson.wire, description: "The services, sorted by id." }
}

const serviceTags = (operation: "add" | "remove"): OperationDescription => ({
  operationId: `${operation}_service_tags`,
  summary: `${operation === "add" ? "Add tags to" : "Remove tags from"} services`,
  description: "Touches the services that match now; tags are persisted with the service id.",
  tag: B,
  body: writeBody(VocabularyB.ServiceTagBodyJson.wire, "The services and the tags."),
  response: tagCount
})

const channels = (mechanism: "getter" | "setter"): OperationDescription => ({
  operationId: `get_${mechanism}_channels`,
  summary: `List ${mechanism}s`,
  description: `The ${mechanism}s matching any selector.`,
  tag: B,
  body: readBody(mechanism === "getter" ? VocabularyB.GetterSelectorsJson.wire : VocabularyB.SetterSelectorsJson.wire, `every ${mechanism}`),
  response: { schema: VocabularyB.ChannelsJson.wire, description: `The ${mechanism}s, sorted by id.` }
})

const fetchValues: OperationDescription = {
  operationId: "fetch_values",
  summary: "Read the values of getters",
  description: "Asks the devices for the current value of every getter matching any selector." + loneBinary,
  tag: B,
  body: readBody(VocabularyB.GetterSelectorsJson.wire, "every getter"),
  response: { schema: VocabularyB.FetchResultsJson.wire, description: "The value or error of each getter." }
}

const sendValues: OperationDescription = {
  operationId: "send_values",
  summary: "Send values to setters",
  description: "Writes, batched per adapter. A value of the wrong type is that setter's TypeError; the others are written.",
  tag: B,
  body: writeBody(VocabularyB.SendBodyJson.wire, "The targets and their values."),
  response: { schema: VocabularyB.SendResultsJson.wire, description: "The outcome for each setter." }
}

// ---- shared ---------------------------------------------------------------------------------------

const channelTags = (operation: "add" | "remove"): OperationDescription => ({
  operationId: `${operation}_channel_tags`,
  summary: `${operation === "add" ? "Add tags to" : "Remove tags from"} channels (both vocabularies)`,
  description: "Touches every channel that matches now, of either mechanism. A's put/delete input and output " +
    "tags and B's add/remove getter and setter tags.",
  tag: "shared",
  query: [{
    name: "vocabulary",
    description: "Reads the body in this vocabulary; absent, the body's shape tells.",
    schema: VocabularyName
  }],
  body: writeBody(ChannelTagBodyJson, "The channels and the tags, in either vocabulary."),
  response: tagCount
})

/** `/channels/getter/tags` and `/channels/setter/tags`: B's FoxBox paths, restricted to one mechanism. */
const mechanismTags = (operation: "add" | "remove", mechanism: "getter" | "setter"): OperationDescription => ({
  operationId: `${operation}_channel_tags_alias_${mechanism}s`,
  summary: `${operation === "add" ? "Add tags to" : "Remove tags from"} ${mechanism}s (alias)`,
  description: `FoxBox's path, for ${mechanism}s only (\`/api/v1/channels/tag\` touches either mechanism). ` +
    `Touches the ${mechanism}s that match now.`,
  tag: B,
  body: writeBody(mechanism === "getter" ? VocabularyB.GetterTagBodyJson.wire : VocabularyB.SetterTagBodyJson.wire, `The ${mechanism}s and the tags.`),
  response: tagCount
})

// ---- watching -------------------------------------------------------------------------------------

const watchChannels: OperationDescription = {
  operationId: "watch_channels",
  summary: "Watch channels (WebSocket, both vocabularies)",
  description: "A WebSocket (send `Upgrade: websocket`; a plain GET is answered 426). Text frames, one JSON " +
    "document each. The client's first frame registers a watch, each later frame replaces it with no event lost " +
    "or repeated for the channels in both; a malformed frame is answered `{\"Error\": …}` and changes nothing. " +
    "The server announces the channels already watched, then values and the set's changes, within the token's " +
    "scope (a token without the `watch` right is answered 403 before the upgrade). It pings every " +
    `${defaultGatewayOptions.watchPingMs / 1000} s and drops a peer that does not answer. When over ` +
    `${WATCH_QUEUE_LIMIT} events wait for a client, they are coalesced to the latest value per channel; if more ` +
    `than ${WATCH_QUEUE_RESUME} remain, the socket is closed with 1013. See docs/watching.md.`,
  tag: "watching",
  query: [{
    name: "vocabulary",
    description: "The socket's vocabulary; absent, the first registration's shape tells (A: `source`, B: `select`).",
    schema: VocabularyName
  }],
  response: { schema: WatchServerFrameJson, description: "Switching Protocols: the WebSocket is open." },
  upgrade: { clientFrames: WatchFrameJson },
  answers: { errors: { "429": `The token holds ${maxWatchSocketsPerToken} watch sockets already.` } }
}

// ---- vocabulary A ---------------------------------------------------------------------------------

const A = "vocabulary A"

const nodeTags = (operation: "put" | "delete"): OperationDescription => ({
  operationId: `${operation}_node_tag`,
  summary: `${operation === "put" ? "Add tags to" : "Remove tags from"} nodes`,
  description: "Touches the nodes that match now; tags are persisted with the node id.",
  tag: A,
  body: writeBody(VocabularyA.NodeTagBodyJson.wire, "The nodes and the tags."),
  response: tagCount
})

const getInputChannels: OperationDescription = {
  operationId: "get_input_channels",
  summary: "List inputs",
  description: "The inputs matching any selector.",
  tag: A,
  body: readBody(VocabularyA.GetSelectorsJson.wire, "every input"),
  response: { schema: VocabularyA.ChannelsJson.wire, description: "The inputs, sorted by id." }
}

// ---- the table ------------------------------------------------------------------------------------

export const operations: Readonly<Record<RouteKey, OperationDescription>> = {
  "GET /api/v1/services": getServices,
  "POST /api/v1/services": alias(getServices, "post", methodAlias),
  "POST /api/v1/services/tag": serviceTags("add"),
  "DELETE /api/v1/services/tag": serviceTags("remove"),
  "POST /api/v1/services/tags": alias(serviceTags("add"), "tags", "FoxBox's path."),
  "DELETE /api/v1/services/tags": alias(serviceTags("remove"), "tags", "FoxBox's path."),
  "GET /api/v1/channels/getters": channels("getter"),
  "POST /api/v1/channels/getters": alias(channels("getter"), "post", methodAlias),
  "GET /api/v1/channels/setters": channels("setter"),
  "POST /api/v1/channels/setters": alias(channels("setter"), "post", methodAlias),
  "POST /api/v1/channels/getter/tags": mechanismTags("add", "getter"),
  "DELETE /api/v1/channels/getter/tags": mechanismTags("remove", "getter"),
  "POST /api/v1/channels/setter/tags": mechanismTags("add", "setter"),
  "DELETE /api/v1/channels/setter/tags": mechanismTags("remove", "setter"),
  "GET /api/v1/channels/get": fetchValues,
  "PUT /api/v1/channels/get": alias(fetchValues, "put", methodAlias),
  "POST /api/v1/channels/get": alias(fetchValues, "post", methodAlias),
  "PUT /api/v1/channels/set": sendValues,

  "POST /api/v1/channels/tag": channelTags("add"),
  "DELETE /api/v1/channels/tag": channelTags("remove"),

  "GET /api/v1/channels/watch": watchChannels,

  "GET /api/v1/nodes": {
    operationId: "get_nodes",
    summary: "List nodes",
    description: "The nodes matching any selector.",
    tag: A,
    body: readBody(VocabularyA.NodeSelectorsJson.wire, "every node"),
    response: { schema: VocabularyA.NodesJson.wire, description: "The nodes, sorted by id." }
  },
  "POST /api/v1/nodes/tag": nodeTags("put"),
  "DELETE /api/v1/nodes/tag": nodeTags("delete"),
  "GET /api/v1/channels": getInputChannels,
  "GET /api/v1/channels/inputs": alias(getInputChannels, "inputs", "Another path for get_input_channels."),
  "GET /api/v1/channels/outputs": {
    operationId: "get_output_channels",
    summary: "List outputs",
    description: "The outputs matching any selector.",
    tag: A,
    body: readBody(VocabularyA.SetSelectorsJson.wire, "every output"),
    response: { schema: VocabularyA.ChannelsJson.wire, description: "The outputs, sorted by id." }
  },
  "GET /api/v1/channels/value": {
    operationId: "get_channel_value",
    summary: "Read the values of inputs",
    description: "Asks the devices for the current value of every input matching any selector." + loneBinary,
    tag: A,
    body: readBody(VocabularyA.GetSelectorsJson.wire, "every input"),
    response: { schema: VocabularyA.FetchResultsJson.wire, description: "The value or error of each input." }
  },
  "POST /api/v1/channels/value": {
    operationId: "put_channel_value",
    summary: "Send a value to outputs",
    description: "Writes, batched per adapter. A value of the wrong type is that output's TypeError; the others are written.",
    tag: A,
    body: writeBody(VocabularyA.PutValueBodyJson.wire, "The outputs and the value."),
    response: { schema: VocabularyA.SendResultsJson.wire, description: "The outcome for each output." }
  },

  "GET /health": {
    operationId: "health",
    summary: "Health probe",
    description: "Answers without a token, so supervisors can probe the process.",
    tag: "health",
    response: { schema: HealthJson, description: "The process is up: `{\"status\": \"ok\"}`, or degraded with the reasons." }
  },
  "HEAD /health": {
    operationId: "health_head",
    summary: "Health probe, without a body",
    description: "Answers like GET /health, without the body, for health checkers that send HEAD.",
    tag: "health",
    response: { status: 200, description: "The process is up." }
  },
  "GET /ping": {
    operationId: "ping",
    summary: "Ping",
    description: "Answers 204 without a token: the FoxBox web app waits for it before its first call.",
    tag: "health",
    response: { status: 204, description: "The process is up." }
  },
  "HEAD /ping": {
    operationId: "ping_head",
    summary: "Ping, with HEAD",
    description: "Answers like GET /ping.",
    tag: "health",
    response: { status: 204, description: "The process is up." }
  },
  "POST /users/setup": {
    operationId: "setup",
    summary: "Create the first user",
    description: "Creates the first user of a gateway started with `--no-default-admin`, once. Needs no token.",
    tag: "users",
    body: writeBody(SetupBodyJson, "The first user."),
    response: { schema: SessionTokenJson, description: "The user was created; a session token of it." },
    answers: { success: 201, errors: { "410": "A user exists already: setup is done." } }
  },
  "POST /users/login": {
    operationId: "login",
    summary: "Log in",
    description: "HTTP Basic credentials (`Authorization: Basic …`) in, a session token out. Failed attempts are limited " +
      "per user and per address.",
    tag: "users",
    response: { schema: SessionTokenJson, description: "A new session token." },
    answers: {
      success: 201,
      errors: { "401": "Missing or wrong credentials.", "429": "Too many failed attempts; `Retry-After` says when to try again." }
    }
  },
  "POST /users/logout": {
    operationId: "logout",
    summary: "Log out",
    description: "Revokes the token the request presents (`Authorization: Bearer` or `?auth=`).",
    tag: "users",
    response: { status: 204, description: "The token is revoked." },
    answers: { errors: { "401": "Missing, unknown, expired or revoked token." } }
  },
  "GET /api/v1/openapi.json": {
    operationId: "get_openapi_document",
    summary: "This document",
    description: "The OpenAPI 3.1 document of every route the server answers.",
    tag: "documentation",
    response: { schema: Schema.Record(Schema.String, Schema.Json), description: "An OpenAPI 3.1 document." }
  }
}
