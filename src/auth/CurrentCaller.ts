import * as Context from "effect/Context"
import type { Caller } from "../domain/Access.ts"

/**
 * Who is calling: provided to every `/api/v1` handler by the authentication step (`src/http/routing/Authentication.ts`),
 * so a handler (the watch socket's too) learns the user, the token and its scope from its context.
 */
export class CurrentCaller extends Context.Service<CurrentCaller, Caller>()("app/CurrentCaller") {}
