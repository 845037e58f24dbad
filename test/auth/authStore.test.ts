import { Effect, type Scope } from "effect"
import type { TokenStore } from "../../src/auth/TokenStore.ts"
import type { UserStore } from "../../src/auth/UserStore.ts"
import type { StoreRun } from "../gateway/TagStoreContract.ts"
import { inMemoryAuthStore, makeInMemoryAuthStore } from "../support/InMemoryStores.ts"
import { authStoreContract } from "./AuthStoreContract.ts"

/** Stores of their own; each run is a restart on the same memory. */
const fresh: Effect.Effect<StoreRun<UserStore | TokenStore, never>, never, Scope.Scope> = Effect.sync(() => {
  const layer = inMemoryAuthStore(makeInMemoryAuthStore())
  return (effect) => Effect.provide(effect, layer)
})

authStoreContract("the in-memory stores", fresh)
