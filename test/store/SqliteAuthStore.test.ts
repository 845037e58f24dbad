import { Effect } from "effect"
import type { TokenStore } from "../../src/auth/TokenStore.ts"
import type { UserStore } from "../../src/auth/UserStore.ts"
import { authStoreContract } from "../auth/AuthStoreContract.ts"
import { session, tempDir } from "./storeSession.ts"

/** Stores of their own in a temp folder; each run opens the database anew. */
const fresh = Effect.map(tempDir, (dataDir) => <A, E>(effect: Effect.Effect<A, E, UserStore | TokenStore>) => session(dataDir, effect))

authStoreContract("SqliteUserStore and SqliteTokenStore", fresh)
