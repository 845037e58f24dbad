import { Effect, Layer, type Scope } from "effect"
import type { LoginFailures } from "../../src/auth/LoginFailures.ts"
import { LoginFailuresInMemory } from "../../src/auth/LoginFailuresInMemory.ts"
import type { TokenCreations } from "../../src/auth/TokenCreations.ts"
import { TokenCreationsInMemory } from "../../src/auth/TokenCreationsInMemory.ts"
import type { StoreRun } from "../gateway/TagStoreContract.ts"
import { loginFailuresContract } from "./LoginFailuresContract.ts"
import { tokenCreationsContract } from "./TokenCreationsContract.ts"

/** Counts of their own, for one test. */
const freshOf = <S>(layer: Layer.Layer<S>): Effect.Effect<StoreRun<S, never>, never, Scope.Scope> =>
  Effect.succeed((effect) => Effect.provide(effect, Layer.fresh(layer)))

loginFailuresContract("the failed logins in memory", freshOf<LoginFailures>(LoginFailuresInMemory))
tokenCreationsContract("the token creations in memory", freshOf<TokenCreations>(TokenCreationsInMemory))
