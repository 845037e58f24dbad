import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createClient } from "../../src/client/index.ts"
import { nodePlatform } from "../../src/client-node/index.ts"
import { counterCount, counterGetter, targetSetter } from "../support/bridgePlayer.ts"
import { pause } from "../support/eventually.ts"
import { clientWatcher, type NumberedWatcher, rawWatcher, type Seen } from "../support/numberedWatcher.ts"
import { type ReplicaHome, startReplicaHome } from "../support/replicaHome.ts"

/**
 * Three replicas behind HAProxy on docs/replicas.md's file, one killed with SIGKILL under 300 watchers
 * and a stream of writes (issue 37, "Failover a client can rely on"); then what `/health` tells HAProxy.
 *
 * The substitution of the documented file, and nothing else: its frontend `10.0.0.10:80` and its
 * servers `10.0.0.11:3000`, `10.0.0.12:3000`, `10.0.0.13:3000` become free ports on 127.0.0.1, HAProxy's
 * and each replica's (the replicas' `--trust-proxy 10.0.0.10` becomes `--trust-proxy 127.0.0.1`).
 */
const documented = { frontend: "10.0.0.10:80", servers: ["10.0.0.11:3000", "10.0.0.12:3000", "10.0.0.13:3000"] } as const

const watcherCount = 300
/** Watchers on the TypeScript client; the others are raw WebSockets. */
const clientWatcherCount = 60
/** Five watchers a token, ten tokens a user: within the per-replica socket caps even with every watcher on one replica. */
const watchersPerToken = 5
const tokensPerUser = 10

let home: ReplicaHome
beforeAll(async () => {
  home = await startReplicaHome(3, documented)
}, 90_000)
afterAll(() => home?.stop(), 60_000)

/** API tokens of users of their own (`tokensPerUser` each), inserted through the store. */
const insertTokens = async (count: number): Promise<ReadonlyArray<string>> => {
  const users = Array.from({ length: Math.ceil(count / tokensPerUser) }, (_, user) => `watcher${user}`)
  const inserted = await Promise.all(users.map((user) => home.insertTokens(user, tokensPerUser)))
  return inserted.flat().slice(0, count).map(({ secret }) => secret)
}

/** Reads `read` every 100 ms until `done` holds; fails with the last reading after `timeoutMs`. */
const until = async <A>(read: () => Promise<A>, done: (a: A) => boolean, timeoutMs: number): Promise<A> => {
  for (const deadline = Date.now() + timeoutMs; ; await pause(100)) {
    const a = await read()
    if (done(a)) return a
    if (Date.now() > deadline) throw new Error(`not so within ${timeoutMs} ms: ${JSON.stringify(a).slice(0, 2_000)}`)
  }
}

/**
 * A GET of `path` through HAProxy with the admin's token, sent again once if a connection kept alive
 * from an earlier request was closed without an answer: HAProxy closes the client's connection so when
 * the replica's connection it reused closes under it (a replica just taken out and back, its idle
 * connections ended), and a client may send an idempotent request again then (RFC 9112 §9.3.1), which
 * browsers do and undici's fetch does not.
 */
const getThroughHaproxy = async (path: string): Promise<Response> => {
  const get = () => fetch(`${home.haproxy.baseUrl}${path}`, { headers: { authorization: `Bearer ${home.adminToken}` } })
  try {
    return await get()
  } catch (error) {
    const closedUnanswered = error instanceof TypeError && (error.cause as { code?: unknown } | undefined)?.code === "UND_ERR_SOCKET"
    if (!closedUnanswered) throw error
    return get()
  }
}

/** Every replica serves every counter (each learnt the devices from the bridge's retained `bridge/devices`). */
const everyCounterOnEveryReplica = () =>
  Promise.all(home.replicas.map((replica) =>
    until(
      async () => {
        const response = await fetch(`${replica.baseUrl}/api/v1/channels/getters`, {
          method: "POST",
          headers: { authorization: `Bearer ${home.adminToken}`, "content-type": "application/json" },
          body: JSON.stringify(Array.from({ length: counterCount }, (_, index) => ({ id: counterGetter(index) })))
        })
        return response.status === 200 ? (await response.json() as ReadonlyArray<unknown>).length : response.status
      },
      (listed) => listed === counterCount,
      20_000
    )
  ))

/** A write of `level` through HAProxy: its status, or 0 when no answer came. */
const write = (level: number): Promise<number> =>
  fetch(`${home.haproxy.baseUrl}/api/v1/channels/set`, {
    method: "PUT",
    headers: { authorization: `Bearer ${home.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ select: { id: targetSetter }, value: { ExtNumeric: { value: level, vendor: "zigbee2mqtt", adapter: "zigbee2mqtt@gateway.local", kind: "level" } } }),
    signal: AbortSignal.timeout(10_000)
  }).then((response) => response.status, () => 0)

/** The values it saw that are older than one it saw before. */
const stepsBack = (seen: ReadonlyArray<Seen>): ReadonlyArray<Seen> => {
  let newest = Number.NEGATIVE_INFINITY
  return seen.filter((item) => {
    const back = item.value < newest
    newest = Math.max(newest, item.value)
    return back
  })
}

/** On each connection, values that did not follow the one before by exactly one (a gap or a step back). */
const breaks = (seen: ReadonlyArray<Seen>): ReadonlyArray<readonly [Seen, Seen]> =>
  seen.flatMap((item, index) => {
    const before = seen[index - 1]
    return before !== undefined && before.connection === item.connection && item.value !== before.value + 1 ? [[before, item] as const] : []
  })

describe("a replica killed behind HAProxy", () => {
  it("costs its watchers a reconnect: registered again within 5 s, no value missed or out of order elsewhere, all converge; each write answered 2xx reached the bridge once", async () => {
    await everyCounterOnEveryReplica()
    const tokens = await insertTokens(watcherCount / watchersPerToken)
    const playing = home.player.play(100)
    // As apps do: a client per token, each watching several channels.
    const clients = tokens.slice(0, clientWatcherCount / watchersPerToken).map((token) =>
      createClient({ url: home.haproxy.baseUrl, token, vocabulary: "b", platform: nodePlatform }))
    const watchers: ReadonlyArray<NumberedWatcher> = await Promise.all(Array.from({ length: watcherCount }, (_, index) => {
      const token = Math.floor(index / watchersPerToken)
      const channel = counterGetter(index % counterCount)
      const client = clients[token]
      return client !== undefined ? clientWatcher(client, channel) : rawWatcher(home.haproxy.baseUrl, tokens[token] ?? "", channel)
    }))
    try {
      await pause(2_000)
      // Writes one after another, from before the kill to well after it.
      const answered: Array<{ readonly level: number; readonly status: number; readonly sentAt: number }> = []
      let writing = true
      const writes = (async () => {
        for (let level = 1; writing; level++) {
          const sentAt = Date.now()
          answered.push({ level, status: await write(level), sentAt })
        }
      })()
      await pause(500)
      const [victim] = home.replicas.slice(-1)
      const killedAt = Date.now()
      await victim?.stop("SIGKILL")
      await pause(6_000)
      writing = false
      await writes
      await playing.stop()

      const affected = watchers.filter((watcher) => watcher.seen.some((item) => item.connection > 0) || watcher.registeredAgainAt.length > 0)
      const kept = watchers.filter((watcher) => !affected.includes(watcher))
      // A third of them, give or take: HAProxy spreads the sockets over the three by least connections.
      expect(affected.length).toBeGreaterThan(watcherCount / 6)
      expect(kept.length).toBeGreaterThan(watcherCount / 2)
      // The TypeScript client among them: it reconnects and registers again by itself.
      expect(watchers.slice(0, clientWatcherCount).filter((watcher) => affected.includes(watcher)).length).toBeGreaterThan(0)
      expect(affected.filter((watcher) => watcher.registeredAgainAt.length === 0).map((watcher) => watcher.channel)).toEqual([])
      const slowest = Math.max(...affected.map((watcher) => (watcher.registeredAgainAt[0] ?? Number.POSITIVE_INFINITY) - killedAt))
      expect(slowest).toBeLessThan(5_000)
      expect(kept.flatMap((watcher) => [...breaks(watcher.seen), ...stepsBack(watcher.seen).map((back) => [back, back] as const)])).toEqual([])
      for (const watcher of affected) {
        expect({ channel: watcher.channel, breaks: breaks(watcher.seen) }).toEqual({ channel: watcher.channel, breaks: [] })
        const back = stepsBack(watcher.seen)
        expect(back.length).toBeLessThanOrEqual(1)
        // If one, it is the first value of a later connection: the failover's.
        for (const item of back) expect(watcher.seen.find((first) => first.connection === item.connection)).toBe(item)
      }
      // The player stopped: each holds its counter's last number.
      await until(
        async () => watchers.flatMap((watcher, index) => {
          const last = home.player.last(index % counterCount)
          return watcher.last() === last ? [] : [{ channel: watcher.channel, holds: watcher.last(), last }]
        }),
        (behind) => behind.length === 0,
        5_000
      )

      // A write is answered once published: the bridge may get it a moment later.
      const acknowledged = answered.filter(({ status }) => status >= 200 && status < 300).map(({ level }) => level)
      // Some before the kill, some after it: a write takes a second when the machine is loaded.
      expect(answered.filter(({ status, sentAt }) => status === 200 && sentAt > killedAt).length).toBeGreaterThan(0)
      expect(acknowledged.length).toBeGreaterThan(2)
      const timesReceived = (level: number) => home.player.sets.filter((set) => set === level).length
      await until(async () => acknowledged.filter((level) => timesReceived(level) === 0), (missing) => missing.length === 0, 5_000)
      expect(acknowledged.filter((level) => timesReceived(level) !== 1)).toEqual([])
    } finally {
      await playing.stop()
      await Promise.all(watchers.map((watcher) => watcher.close()))
      await Promise.all(clients.map((client) => client.close()))
    }
  }, 120_000)
})

describe("what /health tells HAProxy", () => {
  it("keeps the replicas in while the broker is down for all of them: degraded, not out; they serve from the home they hold", async () => {
    const downsBefore = home.haproxy.output().split("\n").filter((line) => / is DOWN/.test(line)).length
    // Those still running (the test above killed one).
    const answering = await Promise.all(home.replicas.map((replica) => fetch(`${replica.baseUrl}/ping`).then((response) => response.status === 204, () => false)))
    const live = home.replicas.filter((_, index) => answering[index])
    expect(live.length).toBeGreaterThan(1)
    await home.mosquitto.stop()
    try {
      const degraded = await Promise.all(live.map((replica) =>
        until(
          () => fetch(`${replica.baseUrl}/health`).then(async (response) => ({ status: response.status, body: await response.json() as { status: string } })),
          (health) => health.body.status === "degraded",
          10_000
        )
      ))
      expect(degraded.map((health) => health.status)).toEqual(live.map(() => 200))
      // Two checks' worth and more: HAProxy would have taken them out by now.
      await pause(3_000)
      expect(home.haproxy.output().split("\n").filter((line) => / is DOWN/.test(line)).length).toBe(downsBefore)
      const served = await getThroughHaproxy("/api/v1/channels/getters")
      expect(served.status).toBe(200)
    } finally {
      await home.mosquitto.start()
    }
  }, 60_000)

  it("takes a replica out while it cannot reach its database, and back in once it can", async () => {
    // HAProxy's log from here on: the servers it marked down (or up) for `reason`.
    const from = home.haproxy.output().length
    const marked = (state: "DOWN" | "UP", reason: string) =>
      new Set([...home.haproxy.output().slice(from).matchAll(new RegExp(`Server replicas/(\\w+) is ${state}, reason: ${reason}`, "g"))].map(([, server]) => server))
    const allowed = (allow: boolean) => home.postgres.query("postgres", `ALTER DATABASE ${home.database} ALLOW_CONNECTIONS ${allow}`)
    allowed(false)
    try {
      home.postgres.query("postgres", `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${home.database}'`)
      // Every replica shares this database here: each is taken out on its 503s.
      await until(async () => marked("DOWN", "Layer7 wrong status, code: 503").size, (out) => out >= 2, 15_000)
    } finally {
      allowed(true)
    }
    await until(async () => marked("UP", "Layer7 check passed").size, (back) => back >= 2, 15_000)
    const served = await getThroughHaproxy("/api/v1/channels/getters")
    expect(served.status).toBe(200)
  }, 60_000)
})
