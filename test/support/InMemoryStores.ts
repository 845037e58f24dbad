import { Effect, Layer, Option } from "effect"
import {
  type Generation,
  type ListedToken,
  newGeneration,
  type StoredToken,
  type TokenPage,
  TokenStore,
  type TokenStoreShape
} from "../../src/auth/TokenStore.ts"
import { type StoredUser, UserStore, type UserStoreShape } from "../../src/auth/UserStore.ts"
import { noChangesElsewhere, type OwnerKind, TagStore, type TagStoreShape } from "../../src/gateway/TagStore.ts"

/**
 * The stores the core and auth define, kept in memory: they pass the same interface tests as the SQLite
 * ones (test/gateway/TagStoreContract.ts, test/auth/AuthStoreContract.ts), and let a test run the core
 * with no database at all. Nothing here fails.
 */

/** A TagStore in memory: each `make()` is one store, which outlives the layers built on it (a restart keeps it). */
export const makeInMemoryTagStore = (): TagStoreShape => {
  const byKind: Record<OwnerKind, Map<string, Set<string>>> = { service: new Map(), channel: new Map() }
  const change = (ownerKind: OwnerKind, ids: ReadonlyArray<string>, tags: ReadonlyArray<string>, add: boolean) =>
    Effect.sync(() => {
      let changed = 0
      for (const id of ids) {
        const held = byKind[ownerKind].get(id) ?? new Set<string>()
        for (const tag of tags) {
          if (held.has(tag) === add) continue
          if (add) held.add(tag)
          else held.delete(tag)
          changed++
        }
        if (held.size === 0) byKind[ownerKind].delete(id)
        else byKind[ownerKind].set(id, held)
      }
      return changed
    })
  const copy = (byId: ReadonlyMap<string, ReadonlySet<string>>) => new Map([...byId].map(([id, tags]) => [id, new Set(tags)]))
  return {
    add: (ownerKind, ids, tags) => change(ownerKind, ids, tags, true),
    remove: (ownerKind, ids, tags) => change(ownerKind, ids, tags, false),
    load: () => Effect.sync(() => ({ service: copy(byKind.service), channel: copy(byKind.channel) })),
    changes: noChangesElsewhere
  }
}

/** The core's TagStore on `store` (a new one unless given). */
export const inMemoryTagStore = (store: TagStoreShape = makeInMemoryTagStore()) => Layer.succeed(TagStore, store)

/** A UserStore and a TokenStore in memory, sharing their data as the SQLite ones share a database. */
export const makeInMemoryAuthStore = (): { readonly users: UserStoreShape; readonly tokens: TokenStoreShape } => {
  const users = new Map<string, StoredUser>()
  const tokens = new Map<number, StoredToken>()
  let lastUserId = 0
  let lastTokenId = 0
  let generation: Generation = newGeneration()
  /** Every change replaces the generation, as a write to the database does. */
  const wrote = <A>(a: A): A => {
    generation = newGeneration()
    return a
  }
  const listed = (token: StoredToken): Option.Option<ListedToken> =>
    Option.map(Option.fromUndefinedOr([...users.values()].find((user) => user.id === token.userId)), (user) => ({ ...token, username: user.username }))
  const pageOf = ({ after, limit }: TokenPage, keep: (token: StoredToken) => boolean) =>
    [...tokens.values()]
      .filter((token) => token.id > after && keep(token))
      .sort((a, b) => a.id - b.id)
      .slice(0, limit)
      .flatMap((token) => Option.toArray(listed(token)))
  const insert = (user: Omit<StoredUser, "id">) => {
    if (users.has(user.username)) return Option.none<StoredUser>()
    const stored = { ...user, id: ++lastUserId }
    users.set(user.username, stored)
    return wrote(Option.some(stored))
  }
  const update = (id: number, change: (token: StoredToken) => StoredToken) => {
    const token = tokens.get(id)
    if (token !== undefined) tokens.set(id, wrote(change(token)))
    return token !== undefined
  }
  return {
    users: {
      count: Effect.sync(() => users.size),
      insert: (user) => Effect.sync(() => insert(user)),
      insertFirst: (user) => Effect.sync(() => users.size > 0 ? Option.none() : insert(user)),
      byName: (username) => Effect.sync(() => Option.fromUndefinedOr(users.get(username))),
      list: Effect.sync(() => [...users.values()].sort((a, b) => (a.username < b.username ? -1 : a.username > b.username ? 1 : 0))),
      remove: (username) =>
        Effect.sync(() => {
          const user = users.get(username)
          if (user === undefined) return false
          users.delete(username)
          for (const token of [...tokens.values()]) if (token.userId === user.id) tokens.delete(token.id)
          return wrote(true)
        }),
      setPasswordHash: (username, passwordHash) =>
        Effect.sync(() => {
          const user = users.get(username)
          if (user !== undefined) users.set(username, wrote({ ...user, passwordHash }))
          return user !== undefined
        })
    },
    tokens: {
      insert: (token) =>
        Effect.sync(() => {
          const id = ++lastTokenId
          tokens.set(id, wrote({ ...token, id, revokedAt: null, lastUsedAt: null }))
          return id
        }),
      byHash: (tokenHash) =>
        Effect.sync(() => Option.flatMap(Option.fromUndefinedOr([...tokens.values()].find((t) => t.tokenHash === tokenHash)), listed)),
      byId: (id) => Effect.sync(() => Option.flatMap(Option.fromUndefinedOr(tokens.get(id)), listed)),
      list: (page) => Effect.sync(() => pageOf(page, () => true)),
      listOf: (userId, page) => Effect.sync(() => pageOf(page, (token) => token.userId === userId)),
      revoke: (id, at) => Effect.sync(() => update(id, (token) => ({ ...token, revokedAt: token.revokedAt ?? at }))),
      revokeWithCreated: (id, at) =>
        Effect.sync(() => {
          if (!tokens.has(id)) return []
          const found = [id]
          for (const creator of found) {
            for (const token of tokens.values()) if (token.createdBy === creator && !found.includes(token.id)) found.push(token.id)
          }
          for (const each of found) update(each, (token) => ({ ...token, revokedAt: token.revokedAt ?? at }))
          return found.sort((a, b) => a - b)
        }),
      liveApiTokensOf: (userId, at) =>
        Effect.sync(() =>
          [...tokens.values()].filter((t) =>
            t.userId === userId && t.kind === "api" && t.revokedAt === null && (t.expiresAt === null || t.expiresAt > at)
          ).length
        ),
      liveComparisonsOf: (userId, at) =>
        Effect.sync(() =>
          [...tokens.values()].filter((t) =>
            t.userId === userId && t.kind === "comparison" && t.revokedAt === null && (t.expiresAt === null || t.expiresAt > at)
          ).map((t) => t.id)
        ),
      revokeSessionsOf: (userId, at) =>
        Effect.sync(() =>
          [...tokens.values()]
            .filter((token) => token.userId === userId && token.kind === "session" && token.revokedAt === null)
            .filter((token) => update(token.id, (t) => ({ ...t, revokedAt: at })))
            .length
        ),
      touch: (id, at) => Effect.sync(() => void update(id, (token) => ({ ...token, lastUsedAt: at }))),
      validUntil: (id, at) =>
        Effect.sync(() =>
          Option.flatMap(Option.fromUndefinedOr(tokens.get(id)), (token) =>
            token.revokedAt !== null || (token.expiresAt !== null && token.expiresAt <= at)
              ? Option.none()
              : Option.some(token.expiresAt ?? Number.POSITIVE_INFINITY))
        ),
      generation: () => generation,
      // As SQLite's: a change is seen when the generation is read.
      changed: Effect.never
    }
  }
}

/** Auth's UserStore and TokenStore on `store` (a new one unless given). */
export const inMemoryAuthStore = (store = makeInMemoryAuthStore()) =>
  Layer.merge(Layer.succeed(UserStore, store.users), Layer.succeed(TokenStore, store.tokens))
