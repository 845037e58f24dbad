import { writeFileSync } from "node:fs"
import { request } from "node:http"
import { join } from "node:path"
import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { demoHome } from "../../src/adapters/simulator/DemoHome.ts"
import { maxFailuresPerAddress, maxFailuresPerUserAndAddress } from "../../src/auth/LoginThrottle.ts"
import { maxCreationsPerWindow } from "../../src/auth/TokenQuota.ts"
import { freshDataDir } from "../support/gatewayTestLayer.ts"
import { type GatewayOverHttp, startGateway, testAdminPassword } from "../support/gatewayOverHttp.ts"
import { type Postgres, startPostgres } from "../support/postgres.ts"

/**
 * The limits replicas share through PostgreSQL (docs/replicas.md): failed logins spread over three
 * gateways on one database are throttled as on one gateway, and so is a user's token-creation rate.
 * The requests go round-robin straight to the replicas, one after the other. The gateways run in this
 * process, over real sockets: what they share is the database, nothing of a process; and here a wrong
 * password costs the tests' scrypt, not the 0.17 s of a served gateway's (gatewayOverHttp.ts).
 */

let postgres: Postgres | undefined
let replicas: ReadonlyArray<GatewayOverHttp> = []
/** One gateway on SQLite, as a list of one. */
let alone: ReadonlyArray<GatewayOverHttp> = []
beforeAll(async () => {
  postgres = await startPostgres()
  const database = await postgres.createDatabase()
  const passwordFile = join(freshDataDir(), "database-password")
  writeFileSync(passwordFile, `${postgres.password}\n`)
  const onDatabase = { databaseUrl: Option.some(postgres.url(database)), databasePasswordFile: Option.some(passwordFile) }
  alone = [await startGateway(demoHome)]
  // One after the other: each makes the user admin if there is none, as the first does for all.
  for (let started = 0; started < 3; started++) replicas = [...replicas, await startGateway(demoHome, onDatabase)]
}, 60_000)
afterAll(async () => {
  await Promise.all([...alone, ...replicas].map((gateway) => gateway.close()))
  await postgres?.stop()
})

/** One after the other, each to the next gateway in turn. */
const roundRobin = async <A>(gateways: ReadonlyArray<GatewayOverHttp>, count: number, send: (gateway: GatewayOverHttp, index: number) => Promise<A>) => {
  const answers: Array<A> = []
  for (let index = 0; index < count; index++) answers.push(await send(nth(gateways, index), index))
  return answers
}

const nth = (gateways: ReadonlyArray<GatewayOverHttp>, index: number): GatewayOverHttp => {
  const gateway = gateways[index % gateways.length]
  if (gateway === undefined) throw new Error("no gateway started")
  return gateway
}

const login = async (gateway: GatewayOverHttp, username: string, password: string) => {
  const response = await fetch(`${gateway.baseUrl}/users/login`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}` }
  })
  await response.arrayBuffer()
  return response.status === 429 ? `429 after ${response.headers.get("retry-after") === null ? "no" : "a"} Retry-After` : String(response.status)
}

/** A wrong password for `username`, sent from `localAddress` (another loopback address: a client of its own): the status. */
const wrongLoginFrom = (gateway: GatewayOverHttp, username: string, localAddress: string) =>
  new Promise<number>((resolve, reject) => {
    const sent = request(`${gateway.baseUrl}/users/login`, {
      method: "POST",
      localAddress,
      headers: { authorization: `Basic ${Buffer.from(`${username}:wrong password`).toString("base64")}` }
    }, (response) => {
      response.resume()
      response.once("end", () => resolve(response.statusCode ?? 0))
    })
    sent.once("error", reject)
    sent.end()
  })

/**
 * Wrong passwords for the admin, then for as many made-up users as the address has failures left, then
 * one more made-up user, then the admin's right password: what each attempt is answered.
 */
const failedLogins = async (gateways: ReadonlyArray<GatewayOverHttp>) => {
  const forAdmin = await roundRobin(gateways, maxFailuresPerUserAndAddress + 2, (gateway) => login(gateway, "admin", "wrong password"))
  const othersLeft = maxFailuresPerAddress - maxFailuresPerUserAndAddress
  const forOthers = await roundRobin(gateways, othersLeft + 1, (gateway, index) => login(gateway, `nobody-${index}`, "wrong password"))
  return { forAdmin, forOthers, rightPassword: await login(nth(gateways, 0), "admin", testAdminPassword) }
}

describe("three replicas on one PostgreSQL database", () => {
  it("throttle failed logins spread over them at the same count as one gateway", async () => {
    const locked = "429 after a Retry-After"
    const expected = {
      forAdmin: [...Array(maxFailuresPerUserAndAddress).fill("401"), locked, locked],
      forOthers: [...Array(maxFailuresPerAddress - maxFailuresPerUserAndAddress).fill("401"), locked],
      rightPassword: locked
    }
    // Side by side: the one gateway and the replicas count apart (SQLite's memory, PostgreSQL).
    const [one, three] = await Promise.all([failedLogins(alone), failedLogins(replicas)])
    expect(one).toEqual(expected)
    expect(three).toEqual(expected)
  }, 60_000)

  it("hold the rule for attempts in flight per replica: a burst at one is answered as by one gateway, a burst over three checks at most three budgets", async () => {
    const burst = 30
    const statuses = async (gateways: ReadonlyArray<GatewayOverHttp>, localAddress: string) => {
      const answers = await Promise.all(Array.from({ length: burst }, (_, index) => wrongLoginFrom(nth(gateways, index), "burst", localAddress)))
      return { checked: answers.filter((status) => status === 401).length, refused: answers.filter((status) => status === 429).length }
    }
    expect(await statuses(replicas.slice(0, 1), "127.0.0.2")).toEqual({ checked: maxFailuresPerUserAndAddress, refused: burst - maxFailuresPerUserAndAddress })
    const spread = await statuses(replicas, "127.0.0.3")
    expect(spread.checked + spread.refused).toBe(burst)
    expect(spread.checked).toBeGreaterThanOrEqual(maxFailuresPerUserAndAddress)
    expect(spread.checked).toBeLessThanOrEqual(maxFailuresPerUserAndAddress * replicas.length)
  }, 60_000)

  it(`share a user's token-creation rate: ${maxCreationsPerWindow} a minute, whichever replicas create`, async () => {
    const token = nth(replicas, 0).token
    const create = async (gateway: GatewayOverHttp) => {
      const response = await fetch(`${gateway.baseUrl}/api/v1/tokens`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: "{}"
      })
      return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json() }
    }
    const answers = await roundRobin(replicas, maxCreationsPerWindow + 3, create)
    expect(answers.slice(0, maxCreationsPerWindow).map((answer) => answer.status)).toEqual(Array(maxCreationsPerWindow).fill(201))
    for (const refused of answers.slice(maxCreationsPerWindow)) {
      expect(refused.status).toBe(429)
      expect(Number(refused.retryAfter)).toBeGreaterThan(50)
      expect(refused.body).toMatch(new RegExp(`^this user created ${maxCreationsPerWindow} tokens within 60 s, the most it may: try again in \\d+ s$`))
    }
  }, 60_000)
})
