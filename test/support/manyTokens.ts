import { randomBytes } from "node:crypto"
import { Effect, Option } from "effect"
import { TokenStore } from "../../src/auth/TokenStore.ts"
import { UserStore } from "../../src/auth/UserStore.ts"
import { session } from "../store/storeSession.ts"

/**
 * `count` API tokens of `username`, written straight into the store of the gateway whose data folder is
 * `dataDir` (beside it, as the command line writes): thousands in a second, where creating each would
 * take a request. Their secrets are not kept; their ids are answered, ascending.
 */
export const insertTokens = (
  dataDir: string,
  username: string,
  count: number,
  token: { readonly label?: (index: number) => string; readonly expiresAt?: number | null } = {}
): Promise<ReadonlyArray<number>> =>
  Effect.runPromise(session(
    dataDir,
    Effect.gen(function*() {
      const user = yield* Effect.flatMap(UserStore.use((users) => users.byName(username)), Option.match({
        onNone: () => Effect.die(`no user ${username}`),
        onSome: Effect.succeed
      }))
      const tokens = yield* TokenStore
      const ids: Array<number> = []
      for (let index = 0; index < count; index++) {
        ids.push(yield* tokens.insert({
          tokenHash: randomBytes(32).toString("hex"),
          userId: user.id,
          kind: "api",
          label: token.label?.(index) ?? `bulk ${index}`,
          scope: null,
          createdAt: Date.now(),
          expiresAt: token.expiresAt ?? null,
          createdBy: null
        }))
      }
      return ids
    })
  ))
