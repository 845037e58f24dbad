import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { oversizedScope, type TokenScope, TokenStatus } from "../domain/Access.ts"
import { Label } from "../domain/Identifier.ts"
import * as B from "../vocabulary/b/index.ts"
import { InvalidInput } from "../vocabulary/common/InvalidInput.ts"
import { TimestampJson, TimestampOrNullJson } from "../vocabulary/common/TimestampJson.ts"
import { decode, encode } from "../vocabulary/common/WireIssue.ts"
import { checked } from "../vocabulary/common/WireShape.ts"
import { anyToken } from "./Access.ts"
import { type Body, endpoint, group } from "./Endpoint.ts"
import { SessionTokenJson } from "./Users.ts"

/**
 * `/api/v1/tokens`: the caller's tokens, listed, created and revoked (docs/reference.md §8, docs/auth.md).
 * A token is shown with its id, never its secret, which is answered once, when it is created.
 */

/** A token as listed: what it is, never the token itself. */
export interface TokenView {
  readonly id: number
  readonly kind: "session" | "api"
  readonly label: string
  readonly status: TokenStatus
  /** `None`: the whole home with every right. */
  readonly scope: Option.Option<TokenScope>
  readonly createdAt: number
  readonly expiresAt: number | null
  readonly lastUsedAt: number | null
  /** Whether it is the token of the request that lists it. */
  readonly current: boolean
}

const scopeDescription = "What the token reaches: vocabulary B channel selectors (one or an array) and its rights " +
  "(`read`, `write`, `watch`, `tag`); `null`, the whole home with every right."

const tokenFields = {
  id: Schema.Int.annotate({ description: "The token's id: what revoking it names." }),
  kind: Schema.Literals(["session", "api"]).annotate({ description: "`session` (from a login) or `api`." }),
  label: Schema.String.annotate({ description: "What the token is for; may be empty." }),
  status: TokenStatus.annotate({ description: "`active`, `expired` or `revoked`." }),
  scope: Schema.NullOr(B.ScopeJson.wire).annotate({ description: scopeDescription }),
  created_at: TimestampJson.wire,
  expires_at: TimestampOrNullJson.wire.annotate({ description: "When it stops working; `null`, never." }),
  last_used_at: TimestampOrNullJson.wire.annotate({ description: "Its last use, to the minute; `null`, never used." }),
  current: Schema.Boolean.annotate({ description: "Whether it is the token of this request (revoking it ends this session)." })
}

export const TokenJson = Schema.Struct(tokenFields).annotate({ identifier: "Token", description: "A token, without its secret." })

const writeToken = (token: TokenView): typeof TokenJson.Type => ({
  id: token.id,
  kind: token.kind,
  label: token.label,
  status: token.status,
  // The routes list only scopes vocabulary B writes (those it read).
  scope: Option.match(token.scope, { onNone: () => null, onSome: (scope) => checked(B.ScopeJson.write(scope)) }),
  created_at: TimestampJson.write(token.createdAt),
  expires_at: TimestampOrNullJson.write(token.expiresAt),
  last_used_at: TimestampOrNullJson.write(token.lastUsedAt),
  current: token.current
})

/** A token as a client reads it back (the routes list only scopes vocabulary B writes, so they read). */
const readToken = (json: typeof TokenJson.Type): TokenView => ({
  id: json.id,
  kind: json.kind,
  label: json.label,
  status: json.status,
  scope: json.scope === null ? Option.none() : Option.some(B.ScopeJson.read(json.scope)),
  createdAt: TimestampJson.read(json.created_at),
  expiresAt: TimestampOrNullJson.read(json.expires_at),
  lastUsedAt: TimestampOrNullJson.read(json.last_used_at),
  current: json.current
})

export const TokensJson = Schema.Array(TokenJson).annotate({ description: "The tokens, by id." })

export const CreatedTokenJson = Schema.Struct({
  ...tokenFields,
  token: SessionTokenJson.fields.session_token.annotate({
    description: "The token itself: shown here once, kept nowhere. Send it as `Authorization: Bearer <token>`."
  })
}).annotate({ identifier: "CreatedToken", description: "The new token, and its secret, shown this once." })

export const NewTokenJson = Schema.Struct({
  label: Schema.optionalKey(Label).annotateKey({
    description: "What the token is for (default empty): at most 256 characters, no control characters."
  }),
  scope: Schema.optionalKey(Schema.NullOr(B.ScopeJson.wire)).annotateKey({
    description: `${scopeDescription} Absent, \`null\`. A scoped token may create only tokens within its own scope.`
  }),
  expires_at: Schema.optionalKey(TimestampOrNullJson.wire).annotateKey({
    description: "When it stops working, `null` never; absent, in 90 days. No later than the expiry of the token creating it " +
      "(absent: capped at it)."
  })
}).annotate({ expected: "a new token", identifier: "NewToken", description: "The token to create; `{}` for the defaults." })

const readNewToken = (json: typeof NewTokenJson.Type) => ({
  label: json.label ?? "",
  scope: json.scope === undefined || json.scope === null ? Option.none<TokenScope>() : Option.some(B.ScopeJson.read(json.scope)),
  expiresAt: json.expires_at === undefined
    ? Option.none<Option.Option<number>>()
    : Option.some(Option.fromNullOr(TimestampOrNullJson.read(json.expires_at)))
})

/** A token to create: its label, its scope (`None`: the creator's whole reach), its expiry (`None`: the default; `Some(null)`: never). */
export type NewToken = ReturnType<typeof readNewToken>

/** A created token: how it is listed, and its secret, shown this once. */
export interface CreatedToken {
  readonly token: TokenView
  readonly secret: string
}

/** A new token's body as a client writes it: only what it sets, so that the server's defaults apply to the rest. */
const writeNewToken = (token: NewToken): Result.Result<typeof NewTokenJson.Type, string> => {
  const scope = Option.match(token.scope, {
    onNone: () => Result.succeed(null),
    onSome: (scope) => B.ScopeJson.write(scope)
  })
  return Result.map(scope, (scope) => ({
    ...(token.label === "" ? {} : { label: token.label }),
    ...(Option.isNone(token.scope) ? {} : { scope }),
    ...Option.match(token.expiresAt, {
      onNone: () => ({}),
      onSome: (expiry) => ({ expires_at: TimestampOrNullJson.write(Option.getOrNull(expiry)) })
    })
  }))
}

const newTokenBody: Body<NewToken, {}> = {
  schema: NewTokenJson,
  description: "The new token's label, scope and expiry.",
  whenAbsent: Option.none(),
  read: (json) =>
    Result.flatMap(decode({ wire: NewTokenJson, read: readNewToken }, json), (request) =>
      Option.match(Option.flatMap(request.scope, oversizedScope), {
        onNone: () => Result.succeed(request),
        onSome: (reason) => Result.fail(new InvalidInput({ path: ["scope", "channels"], reason }))
      })),
  write: (token) => encode({ write: writeNewToken }, token)
}

export const RevokeTokenJson = Schema.Struct({
  id: Schema.Int.annotate({ description: "The token's id, as listed." })
}).annotate({ expected: "a token to revoke", identifier: "RevokedToken", description: "The token to revoke." })

const revokeBody: Body<number, {}> = {
  schema: RevokeTokenJson,
  description: "The id of the token to revoke.",
  whenAbsent: Option.none(),
  read: (json) => decode({ wire: RevokeTokenJson, read: (body) => body.id }, json),
  write: (id) => Result.succeed({ id })
}

const tag = "tokens"

export const tokens = group(
  endpoint({
    operationId: "list_tokens",
    method: "GET",
    path: "/api/v1/tokens",
    access: anyToken,
    tag,
    summary: "List tokens",
    description: "The tokens this token manages, by id: every token of its user if it has no scope; if it has one, those " +
      "of its user whose scope lies within its own. Never a token's secret.",
    answer: { status: 200, shape: {
        wire: TokensJson,
        write: (all: ReadonlyArray<TokenView>) => all.map(writeToken),
        read: (json: typeof TokensJson.Type) => json.map(readToken)
      }, description: "The tokens." }
  }),
  endpoint({
    operationId: "create_token",
    method: "POST",
    path: "/api/v1/tokens",
    access: anyToken,
    tag,
    summary: "Create a token",
    description: "An API token of the caller's user. A token creates only tokens whose scope and rights lie within its own " +
      "and that expire no later than itself.",
    body: newTokenBody,
    answer: {
      status: 201,
      shape: {
        wire: CreatedTokenJson,
        write: (created: CreatedToken) => ({ ...writeToken(created.token), token: created.secret }),
        read: (json: typeof CreatedTokenJson.Type) => ({ token: readToken(json), secret: json.token })
      },
      description: "The new token, with its secret, shown this once."
    },
    errors: { "403": "The new token would reach, may do or last more than the token creating it." }
  }),
  endpoint({
    operationId: "revoke_token",
    method: "POST",
    path: "/api/v1/tokens/revoke",
    access: anyToken,
    tag,
    summary: "Revoke a token",
    description: "Revokes a token this token manages (see `list_tokens`); its watch sockets close at once. Revoking a " +
      "revoked token again is no error.",
    body: revokeBody,
    answer: { status: 204, description: "The token is revoked." }
  })
)
