import { randomBytes } from "node:crypto"
import { Context, Effect, Layer, Option } from "effect"
import { bearer, TokenGrants } from "../../src/auth/TokenGrants.ts"
import { TokenCreationsInMemory } from "../../src/auth/TokenCreationsInMemory.ts"
import { Tokens } from "../../src/auth/Tokens.ts"
import { TokenStore } from "../../src/auth/TokenStore.ts"
import { Users } from "../../src/auth/Users.ts"
import { UserStore } from "../../src/auth/UserStore.ts"
import type { Caller } from "../../src/domain/Access.ts"
import { Database } from "../../src/store/Database.ts"
import { SqliteTokenStore } from "../../src/store/SqliteTokenStore.ts"
import { SqliteUserStore } from "../../src/store/SqliteUserStore.ts"
import type { AnyBenchCase } from "../Harness.ts"
import { tempDir } from "../support/TempDir.ts"

/** Issue 34, item 2: a user's list and revoke cost in proportion to their own tokens, not to everyone's. */

const ownTokens = 10
const otherRows = 50_000
/** Of the other user's rows, those still live; the rest are revoked or expired, as a long-used gateway keeps them. */
const otherLive = 200

const row = (userId: number, index: number, now: number) => ({
  tokenHash: randomBytes(32).toString("hex"),
  userId,
  kind: "api" as const,
  label: `bench ${index}`,
  scope: null,
  createdAt: now,
  expiresAt: index % 2 === 0 ? now - 60_000 : null,
  createdBy: null
})

/**
 * TokenGrants on a SQLite file of its own: "ann" with 10 tokens, and "other" with `others` rows, written
 * through the store in one transaction. Answers the grants, ann's caller and her tokens' ids.
 */
const grantsBeside = (others: number) =>
  Effect.gen(function*() {
    const dataDir = yield* tempDir
    const context = yield* Layer.build(
      TokenGrants.layer().pipe(
        Layer.provideMerge(Layer.mergeAll(Users.layer, Tokens.layer({ sessionDays: 30 }))),
        Layer.provideMerge(Layer.mergeAll(SqliteUserStore, SqliteTokenStore, TokenCreationsInMemory)),
        Layer.provideMerge(Database.layer({ dataDir }))
      )
    )
    const users = Context.get(context, UserStore)
    const store = Context.get(context, TokenStore)
    const db = Context.get(context, Database)
    const now = Date.now()
    const someone = (username: string) =>
      Effect.flatMap(users.insert({ username, email: "", passwordHash: "scrypt$bench", createdAt: now }), Effect.fromOption)
    const other = yield* someone("other")
    const ann = yield* someone("ann")
    yield* db.transaction(Effect.gen(function*() {
      for (let index = 0; index < others; index++) {
        const id = yield* store.insert(row(other.id, index, now))
        // Half expire by `row`; of the others, all but `otherLive` are revoked.
        if (index % 2 === 1 && index >= 2 * otherLive) yield* store.revoke(id, now)
      }
    }))
    const ids = yield* Effect.forEach(Array.from({ length: ownTokens }, (_, index) => index), (index) => store.insert({ ...row(ann.id, index, now), expiresAt: null }))
    const caller: Caller = { user: { name: "ann" }, tokenId: ids[0] ?? 0, kind: "api", scope: Option.none() }
    return { grants: Context.get(context, TokenGrants), caller, ids }
  })

const list = ({ grants, caller }: Effect.Success<ReturnType<typeof grantsBeside>>) =>
  Effect.suspend(() => grants.list(bearer(caller), { after: 0, limit: 100 }))

/** Revokes ann's tokens in turn (revoking again is no error, and costs the same: the row is found and written). */
const revoke = ({ grants, caller, ids }: Effect.Success<ReturnType<typeof grantsBeside>>) => {
  let next = 0
  return Effect.suspend(() => grants.revoke(bearer(caller), ids[next++ % ids.length] ?? 0))
}

const alone = `ann's ${ownTokens} tokens alone`
const beside = `beside ${otherRows.toLocaleString("en-US")} rows of another user (${otherLive} live)`

export const cases: ReadonlyArray<AnyBenchCase> = [
  {
    name: `token listing: list of a user's ${ownTokens} tokens, ${beside}`,
    acquire: Effect.map(Effect.all([grantsBeside(0), grantsBeside(otherRows)]), ([small, big]) => ({
      baseline: { name: alone, run: list(small) },
      subject: { name: beside, run: list(big) }
    }))
  },
  {
    name: `token listing: revoke of one of a user's ${ownTokens} tokens, ${beside}`,
    acquire: Effect.map(Effect.all([grantsBeside(0), grantsBeside(otherRows)]), ([small, big]) => ({
      baseline: { name: alone, run: revoke(small) },
      subject: { name: beside, run: revoke(big) }
    }))
  }
]
