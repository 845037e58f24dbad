import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { NewUser } from "../domain/User.ts"
import { DOCS } from "../vocabulary/common/Docs.ts"
import { fieldsOf, wireRecord } from "../vocabulary/common/WireRecord.ts"
import { plain } from "../vocabulary/common/WireShape.ts"
import { writeBody } from "./Bodies.ts"
import { anyToken, open } from "./Access.ts"
import { endpoint, group, openBodyLimit } from "./Endpoint.ts"

/** `/users/setup`, `/users/login`, `/users/logout` (docs/reference.md §6.7, §8), at the root, not under `/api/v1`. */

const newUser = fieldsOf(NewUser)

/** The body of `POST /users/setup`, the first user: the password is redacted as soon as it is read, so that no log or error can show it. */
export const NewUserJson = wireRecord(NewUser, {
  username: newUser.field("username", Schema.String),
  email: newUser.field("email", Schema.String),
  password: newUser.field("password", { wire: Schema.String, read: Redacted.make, write: Redacted.value })
}, { annotations: { expected: "a new user", identifier: "NewUser", description: DOCS ? "The first user." : "" } })

/** What setup and login answer. */
export const SessionTokenJson = Schema.Struct({
  session_token: Schema.String.check(Schema.isPattern(/^gw_[A-Za-z0-9_-]{43}$/))
}).annotate({ identifier: "SessionToken", description: DOCS ? "A session token: send it as `Authorization: Bearer <token>`." : "" })

/** What `GET /users/setup` answers. */
export const SetupStatusJson = Schema.Struct({
  needed: Schema.Boolean
}).annotate({ identifier: "SetupStatus", description: DOCS ? "Whether the gateway waits for its first user (`POST /users/setup`)." : "" })

const tag = "users"

export const users = group(
  endpoint({
    operationId: "setup_status",
    method: "GET",
    path: "/users/setup",
    access: open,
    bodyLimit: openBodyLimit,
    tag,
    summary: DOCS ? "Whether setup is needed" : "",
    description: DOCS ? "`{\"needed\": true}` while the gateway has no user (started with `--no-default-admin` and not set up " +
      "yet), `false` after. Needs no token: a page asks it to know whether to offer setup or login." : "",
    answer: { status: 200, shape: plain(SetupStatusJson), description: DOCS ? "Whether setup is needed." : "" }
  }),
  endpoint({
    operationId: "setup",
    method: "POST",
    path: "/users/setup",
    access: open,
    bodyLimit: openBodyLimit,
    tag,
    summary: DOCS ? "Create the first user" : "",
    description: DOCS ? "Creates the first user of a gateway started with `--no-default-admin`, once. Needs no token." : "",
    body: writeBody(NewUserJson, DOCS ? "The first user." : ""),
    answer: { status: 201, shape: plain(SessionTokenJson), description: DOCS ? "The user was created; a session token of it." : "" },
    errors: { "410": DOCS ? "A user exists already: setup is done." : "" }
  }),
  endpoint({
    operationId: "login",
    method: "POST",
    path: "/users/login",
    access: open,
    bodyLimit: openBodyLimit,
    tag,
    summary: DOCS ? "Log in" : "",
    description: DOCS ? "HTTP Basic credentials (`Authorization: Basic …`) in, a session token out. Failed attempts are limited " +
      "per user and per address." : "",
    answer: { status: 201, shape: plain(SessionTokenJson), description: DOCS ? "A new session token." : "" },
    errors: { "401": DOCS ? "Missing or wrong credentials." : "", "429": DOCS ? "Too many failed attempts; `Retry-After` says when to try again." : "" }
  }),
  endpoint({
    operationId: "logout",
    method: "POST",
    path: "/users/logout",
    access: anyToken,
    tag,
    summary: DOCS ? "Log out" : "",
    description: DOCS ? "Revokes the token the request presents (`Authorization: Bearer` or `?auth=`)." : "",
    answer: { status: 204, description: DOCS ? "The token is revoked." : "" },
    errors: { "401": DOCS ? "Missing, unknown, expired or revoked token." : "" }
  })
)
