import { Effect, type Scope } from "effect"
import { TagStore } from "../../src/gateway/TagStore.ts"
import { makeInMemoryTagStore } from "../support/InMemoryStores.ts"
import { type StoreRun, tagStoreContract } from "./TagStoreContract.ts"

/** A store of its own; each run is a restart on the same memory. */
const fresh: Effect.Effect<StoreRun<TagStore, never>, never, Scope.Scope> = Effect.sync(() => {
  const store = makeInMemoryTagStore()
  return (effect) => Effect.provideService(effect, TagStore, store)
})

tagStoreContract("the in-memory TagStore", fresh)
