import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import { Argument, type CliError, Command, Flag } from "effect/cli"
import { defaultApiTokenDays, type Lister, operator, TokenGrants } from "../auth/TokenGrants.ts"
import type { ListedToken } from "../auth/TokenStore.ts"
import { dayMs, decodeStoredScope } from "../auth/Tokens.ts"
import { oversizedScope, Right, type TokenScope, tokenStatus } from "../domain/Access.ts"
import * as B from "../vocabulary/b/index.ts"
import { parseJson } from "../vocabulary/common/JsonText.ts"
import { asUserError, storeFlags, withStore, userError } from "./StoreAccess.ts"
import { decode, encode } from "../vocabulary/common/WireIssue.ts"

const unitMs: Record<string, number> = { m: 60_000, h: 3_600_000, d: dayMs }

/** `90d`, `12h`, `30m`, or `never`: when a new token expires (`None`: never). */
export const parseLifetime = (text: string, now: number): Result.Result<Option.Option<number>, string> => {
  if (text === "never") return Result.succeed(Option.none())
  const match = /^([1-9][0-9]{0,5})([mhd])$/.exec(text)
  const unit = match?.[2] === undefined ? undefined : unitMs[match[2]]
  return match?.[1] === undefined || unit === undefined
    ? Result.fail(`--expires: expected a lifetime such as 90d, 12h, 30m, or never; got ${JSON.stringify(text)}`)
    : Result.succeed(Option.some(now + Number(match[1]) * unit))
}

/** The `--scope` JSON (vocabulary B selectors and rights, see docs/auth.md), checked. */
export const parseScope = (text: string): Result.Result<TokenScope, string> =>
  Result.flatMap(
    Result.mapError(parseJson(text), (reason) => `--scope: invalid JSON: ${reason}`),
    (json) =>
      Result.flatMap(
        Result.mapError(decode(B.ScopeJson, json), (e) => `--scope: ${e.message.replace(/^body/, "scope")}`),
        (scope) =>
          Option.match(oversizedScope(scope), { onNone: () => Result.succeed(scope), onSome: (reason) => Result.fail(`--scope: ${reason}`) })
      )
  )

const create = Command.make(
  "create",
  {
    user: Flag.String("user").pipe(Flag.withMetavar("NAME"), Flag.withDefault("admin"), Flag.withDescription("whose token (default admin)")),
    scope: Flag.String("scope").pipe(
      Flag.withMetavar("JSON"),
      Flag.optional,
      Flag.withDescription(`what the token reaches: {"channels": <selector(s)>, "rights": ${JSON.stringify(Right.literals)}} (default: everything)`)
    ),
    expires: Flag.String("expires").pipe(
      Flag.withMetavar("LIFETIME"),
      Flag.optional,
      Flag.withDescription(`90d, 12h, 30m or never (default ${defaultApiTokenDays}d)`)
    ),
    label: Flag.String("label").pipe(Flag.withMetavar("TEXT"), Flag.withDefault(""), Flag.withDescription("a note: what the token is for")),
    ...storeFlags
  },
  (input) =>
    Effect.gen(function*() {
      const scope = yield* Option.match(input.scope, {
        onNone: () => Effect.succeed(Option.none<TokenScope>()),
        onSome: (text) => Effect.map(Effect.mapError(Effect.fromResult(parseScope(text)), userError), Option.some)
      })
      const expiresAt = yield* Option.match(input.expires, {
        onNone: () => Effect.succeed(Option.none<Option.Option<number>>()),
        onSome: (text) => Effect.map(Effect.mapError(Effect.fromResult(parseLifetime(text, Date.now())), userError), Option.some)
      })
      const created = yield* asUserError(TokenGrants.use((grants) =>
        grants.create({ _tag: "Operator", user: input.user }, { label: input.label, scope, expiresAt })
      ))
      // Only the token on stdout, so that `TOKEN=$(gateway tokens create …)` works.
      yield* Console.log(Redacted.value(created.secret))
    }).pipe(withStore(input))
).pipe(Command.withDescription("Create an API token (printed once; only its hash is kept)"))

const describeScope = (stored: string | null): string => {
  if (stored === null) return "everything"
  const scope = decodeStoredScope(stored)
  if (Option.isNone(scope)) return "unreadable (refused)"
  return Result.match(encode(B.ScopeJson, scope.value), { onSuccess: (json) => JSON.stringify(json), onFailure: (e) => e.message })
}

const time = (ms: number | null, none: string) => (ms === null ? none : new Date(ms).toISOString())

/** Tokens are read this many at a time: what the command holds stays bounded however many there are. */
const pageSize = 1_000

const columns = (token: ListedToken, now: number): string =>
  [
    token.id,
    token.username,
    token.kind,
    tokenStatus(token, now),
    time(token.expiresAt, "never"),
    time(token.lastUsedAt, "-"),
    token.createdBy ?? "-",
    token.label === "" ? "-" : token.label,
    describeScope(token.scope)
  ].join("\t")

/** The lister's tokens after id `after`, printed a page at a time. */
const printFrom = (lister: Lister, after: number, now: number): Effect.Effect<void, CliError.UserError, TokenGrants> =>
  Effect.flatMap(asUserError(TokenGrants.use((grants) => grants.list(lister, { after, limit: pageSize }))), (page) => {
    const last = page.at(-1)
    if (last === undefined) return Effect.void
    return Effect.andThen(
      Console.log(page.map((token) => columns(token, now)).join("\n")),
      page.length < pageSize ? Effect.void : printFrom(lister, last.id, now)
    )
  })

const list = Command.make(
  "list",
  {
    user: Flag.String("user").pipe(Flag.withMetavar("NAME"), Flag.optional, Flag.withDescription("only this user's tokens (default: every user's)")),
    ...storeFlags
  },
  (input) =>
    Effect.gen(function*() {
      yield* Console.log(["id", "user", "kind", "status", "expires", "last used", "created by", "label", "scope"].join("\t"))
      const lister = Option.match(input.user, { onNone: () => operator, onSome: (user): Lister => ({ _tag: "Operator", user }) })
      yield* printFrom(lister, 0, Date.now())
    }).pipe(withStore(input))
).pipe(Command.withDescription("List tokens (never the tokens themselves)"))

const revoke = Command.make("revoke", { id: Argument.Int("id").pipe(Argument.withDescription("the token's id, from `tokens list`")), ...storeFlags }, (input) =>
  Effect.gen(function*() {
    const [, ...created] = yield* asUserError(TokenGrants.use((grants) => grants.revoke(operator, input.id)))
    yield* Console.log(created.length === 0 ? `token ${input.id} revoked` : `token ${input.id} revoked, and the tokens it created: ${created.join(", ")}`)
  }).pipe(withStore(input))).pipe(Command.withDescription("Revoke a token and every token it created: they stop working at once"))

/** `gateway tokens create|list|revoke`. */
export const tokensCommand = Command.make("tokens").pipe(
  Command.withDescription("Manage API tokens (works beside a running server)"),
  Command.withSubcommands([create, list, revoke])
)
