import * as Layer from "effect/Layer"
import { LoginFailuresInMemory } from "./LoginFailuresInMemory.ts"
import { LiveSockets, type LiveSocketsOptions } from "./LiveSockets.ts"
import { LoginThrottle } from "./LoginThrottle.ts"
import { TokenGrants } from "./TokenGrants.ts"
import { TokenCreationsInMemory } from "./TokenCreationsInMemory.ts"
import type { TokenQuotaOptions } from "./TokenQuota.ts"
import { Tokens, type TokensOptions } from "./Tokens.ts"
import { Users } from "./Users.ts"

/**
 * Users, tokens (and who may manage which, within what quota), the login throttle and the watch-socket counter. Needs a
 * UserStore and a TokenStore, and the counts of LoginFailures and TokenCreations (`countedInMemory`, or
 * PostgreSQL's for replicas).
 * (The first-run admin, FirstRun, waits for the port: see main.ts.)
 */
export const layer = (options: TokensOptions & LiveSocketsOptions & TokenQuotaOptions) =>
  TokenGrants.layer(options).pipe(
    Layer.provideMerge(Layer.mergeAll(Users.layer, Tokens.layer(options), LoginThrottle.layer, LiveSockets.layer(options)))
  )

/** The failed logins and the token creations counted in this process's memory: one gateway's, which shares them with no one. */
export const countedInMemory = Layer.mergeAll(LoginFailuresInMemory, TokenCreationsInMemory)
