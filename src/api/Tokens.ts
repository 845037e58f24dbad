import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { oversizedScope, type TokenScope, TokenStatus } from "../domain/Access.ts"
import { Label } from "../domain/Identifier.ts"
import { type CreatedToken, NewToken, TokenKind, TokenView } from "../domain/Token.ts"
import * as B from "../vocabulary/b/index.ts"
import { DOCS } from "../vocabulary/common/Docs.ts"
import { InvalidInput } from "../vocabulary/common/InvalidInput.ts"
import { TimestampJson, TimestampOrNullJson } from "../vocabulary/common/TimestampJson.ts"
import { decode, encode } from "../vocabulary/common/WireIssue.ts"
import { type Absence, fieldsOf, type PartialWirePart, partialWireRecord, wireRecord } from "../vocabulary/common/WireRecord.ts"
import { annotated, checked, listOf, type WirePart } from "../vocabulary/common/WireShape.ts"
import { tokenWith } from "./Access.ts"
import { type Body, endpoint, group } from "./Endpoint.ts"
import { integerParameter } from "./QueryParameters.ts"
import { SessionTokenJson } from "./Users.ts"

/**
 * `/api/v1/tokens`: the caller's tokens, listed, created and revoked (docs/reference.md §8, docs/auth.md).
 * A token is shown with its id, never its secret, which is answered once, when it is created.
 */

export type { CreatedToken, NewToken, TokenView }

const scopeDescription = DOCS ? "What the token reaches: vocabulary B channel selectors (one or an array) and its rights " +
  "(`read`, `write`, `watch`, `tag`, `metrics`, `tokens`); `null`, the whole home with every right." : ""

/** A scope, or none (`null`: the whole home with every right); vocabulary B cannot write every scope. */
const ScopeOrNullJson: PartialWirePart<Option.Option<TokenScope>, typeof B.ScopeJson.wire.Type | null> = {
  wire: Schema.NullOr(B.ScopeJson.wire),
  read: (json) => (json === null ? Option.none() : Option.some(B.ScopeJson.read(json))),
  write: (scope) => Option.match(scope, { onNone: () => Result.succeed(null), onSome: B.ScopeJson.write })
}

/** The routes list only scopes vocabulary B writes (those it read). */
const ListedScopeJson = { ...ScopeOrNullJson, write: (scope: Option.Option<TokenScope>) => checked(ScopeOrNullJson.write(scope)) }

const token = fieldsOf(TokenView)

// Each description is on the field's schema, not its key, as the document has always shown them.
const tokenFields = {
  id: token.field("id", Schema.Int.annotate({ description: DOCS ? "The token's id: what revoking it names." : "" })),
  kind: token.field("kind", TokenKind.annotate({
    description: DOCS ? "`session` (from a login), `api`, or `comparison` (the dashboard's Migration page's, see `create_comparison_token`)." : ""
  })),
  label: token.field("label", Schema.String.annotate({ description: DOCS ? "What the token is for; may be empty." : "" })),
  status: token.field("status", TokenStatus.annotate({ description: DOCS ? "`active`, `expired` or `revoked`." : "" })),
  scope: token.field("scope", annotated(ListedScopeJson, { description: scopeDescription })),
  created_at: token.field("createdAt", TimestampJson),
  expires_at: token.field("expiresAt", annotated(TimestampOrNullJson, { description: DOCS ? "When it stops working; `null`, never." : "" })),
  last_used_at: token.field("lastUsedAt", annotated(TimestampOrNullJson, { description: DOCS ? "Its last use, to the minute; `null`, never used." : "" })),
  created_by: token.field("createdBy", Schema.NullOr(Schema.Int).annotate({
    description: DOCS ? "The id of the token that created it over HTTP (revoking that one revokes this one too); `null`: made by a " +
      "login, on the command line, or before creators were kept." : ""
  })),
  current: token.field("current", Schema.Boolean.annotate({ description: DOCS ? "Whether it is the token of this request (revoking it ends this session)." : "" }))
}

export const TokenJson = wireRecord(TokenView, tokenFields, { annotations: { identifier: "Token", description: DOCS ? "A token, without its secret." : "" } })

export const TokensJson = listOf(TokenJson, { description: DOCS ? "The tokens, by id." : "" })

/** A created token as its answer lays it out: the token's fields, and its secret beside them. */
const FlatCreatedToken = Schema.Struct({ ...TokenView.fields, secret: Schema.String })

const createdToken = fieldsOf(FlatCreatedToken)

const FlatCreatedTokenJson = wireRecord(FlatCreatedToken, {
  ...tokenFields,
  token: createdToken.field("secret", SessionTokenJson.fields.session_token.annotate({
    description: DOCS ? "The token itself: shown here once, kept nowhere. Send it as `Authorization: Bearer <token>`." : ""
  }))
}, { annotations: { identifier: "CreatedToken", description: DOCS ? "The new token, and its secret, shown this once." : "" } })

export const CreatedTokenJson: WirePart<CreatedToken, typeof FlatCreatedTokenJson.wire.Type> = {
  wire: FlatCreatedTokenJson.wire,
  read: (json) => {
    const { secret, ...token } = FlatCreatedTokenJson.read(json)
    return { token, secret }
  },
  write: (created) => FlatCreatedTokenJson.write({ ...created.token, secret: created.secret })
}

const newToken = fieldsOf(NewToken)

/** Absent, the default: the creator's whole reach, an expiry in 90 days; a client writes only what it sets. */
const unset: Absence<Option.Option<never>> = { absent: Option.none(), leftOut: Option.isNone }

export const NewTokenJson = partialWireRecord(NewToken, {
  label: newToken.optional("label", Label, { absent: "", leftOut: (label) => label === "" },
    DOCS ? "What the token is for (default empty): at most 256 characters, no control characters." : ""),
  scope: newToken.optionalPartial("scope", ScopeOrNullJson, unset, DOCS ? `${scopeDescription} Absent, \`null\`. A scoped token may create only tokens within its own scope.` : ""),
  expires_at: newToken.optional("expiresAt", {
    wire: TimestampOrNullJson.wire,
    read: (json) => Option.some(Option.fromNullOr(TimestampOrNullJson.read(json))),
    write: (expiry) => TimestampOrNullJson.write(Option.getOrNull(Option.flatten(expiry)))
  }, unset, DOCS ? "When it stops working, `null` never; absent, in 90 days. No later than the expiry of the token creating it " +
    "(absent: capped at it)." : "")
}, { annotations: { expected: "a new token", identifier: "NewToken", description: DOCS ? "The token to create; `{}` for the defaults." : "" } })

const newTokenBody: Body<NewToken, {}> = {
  schema: NewTokenJson.wire,
  description: DOCS ? "The new token's label, scope and expiry." : "",
  whenAbsent: Option.none(),
  read: (json) =>
    Result.flatMap(decode(NewTokenJson, json), (request) =>
      Option.match(Option.flatMap(request.scope, oversizedScope), {
        onNone: () => Result.succeed(request),
        onSome: (reason) => Result.fail(new InvalidInput({ path: ["scope", "channels"], reason }))
      })),
  write: (token) => encode(NewTokenJson, token)
}

export const RevokeTokenJson = Schema.Struct({
  id: Schema.Int.annotate({ description: DOCS ? "The token's id, as listed." : "" })
}).annotate({ expected: "a token to revoke", identifier: "RevokedToken", description: DOCS ? "The token to revoke." : "" })

const revokeBody: Body<number, {}> = {
  schema: RevokeTokenJson,
  description: DOCS ? "The id of the token to revoke." : "",
  whenAbsent: Option.none(),
  read: (json) => decode({ wire: RevokeTokenJson, read: (body) => body.id }, json),
  write: (id) => Result.succeed({ id })
}

const tag = "tokens"

/** A listing of tokens comes in pages: this many tokens unless `?limit=` says, and never more than `maxTokenPage`. */
export const defaultTokenPage = 100
export const maxTokenPage = 1_000

const listQuery = {
  limit: integerParameter(
    { minimum: 1, maximum: maxTokenPage },
    DOCS ? `At most this many tokens (default ${defaultTokenPage}, at most ${maxTokenPage}); fewer means there are no more.` : ""
  ),
  after: integerParameter(
    { minimum: 0 },
    DOCS ? "Only tokens whose id is above this: the last id of the page before (absent: from the first)." : ""
  )
}

export const tokens = group(
  endpoint({
    operationId: "list_tokens",
    method: "GET",
    path: "/api/v1/tokens",
    access: tokenWith("tokens"),
    tag,
    summary: DOCS ? "List tokens" : "",
    description: DOCS ? "A page of the tokens this token manages, by id: every token of its user if it has no scope; if it has one, " +
      "those of its user whose scope lies within its own. Never a token's secret. A page shorter than `limit` is the last; " +
      "the next begins `after` the last id of this one." : "",
    query: listQuery,
    answer: { status: 200, shape: TokensJson, description: DOCS ? "The tokens." : "" }
  }),
  endpoint({
    operationId: "create_token",
    method: "POST",
    path: "/api/v1/tokens",
    access: tokenWith("tokens"),
    tag,
    summary: DOCS ? "Create a token" : "",
    description: DOCS ? "An API token of the caller's user. A token creates only tokens whose scope and rights lie within its own " +
      "and that expire no later than itself." : "",
    body: newTokenBody,
    answer: {
      status: 201,
      shape: CreatedTokenJson,
      description: DOCS ? "The new token, with its secret, shown this once." : ""
    },
    errors: {
      "403": DOCS ? "The new token would reach, may do or last more than the token creating it." : "",
      "429": DOCS ? "The user created 30 tokens within the last minute (`Retry-After` says when to try again), or holds 200 live API " +
        "tokens (sessions not counted): revoke some to create others." : ""
    }
  }),
  endpoint({
    operationId: "create_comparison_token",
    method: "POST",
    path: "/api/v1/tokens/comparison",
    access: tokenWith("tokens"),
    tag,
    summary: DOCS ? "Create the comparison token" : "",
    description: DOCS ? "The token the dashboard's Migration page sends its comparisons with, of kind `comparison`: its calls in " +
      "vocabulary A are not counted among a client's (`gateway_vocabulary_a_calls_total`). Only a session gets one; it reaches " +
      "and may do what the session does, for 24 hours and no longer than the session, and replaces the user's live one (revoked), " +
      "so a user holds one at most." : "",
    answer: {
      status: 201,
      shape: CreatedTokenJson,
      description: DOCS ? "The comparison token, with its secret, shown this once." : ""
    },
    errors: {
      "403": DOCS ? "The request's token is not a session." : "",
      "429": DOCS ? "The user created 30 tokens within the last minute (`Retry-After` says when to try again)." : ""
    }
  }),
  endpoint({
    operationId: "revoke_token",
    method: "POST",
    path: "/api/v1/tokens/revoke",
    access: tokenWith("tokens"),
    tag,
    summary: DOCS ? "Revoke a token" : "",
    description: DOCS ? "Revokes a token this token manages (see `list_tokens`), and every token it created, transitively, in one " +
      "transaction; their watch sockets close at once. Revoking a revoked token again is no error." : "",
    body: revokeBody,
    answer: { status: 204, description: DOCS ? "The token is revoked." : "" }
  })
)
