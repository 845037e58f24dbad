import { Option } from "effect"
import { describe, expect, it } from "vitest"
import { callsSince, reportLine } from "../../src/http/observation/VocabularyAReport.ts"
import type { TokenSeries } from "../../src/http/observation/RequestMetrics.ts"
import { deprecationNotice } from "../../src/http/observation/VocabularyADeprecation.ts"
import { type GatewayOverHttp, gatewayForSuite } from "../support/gatewayOverHttp.ts"
import { eventuallyAsync } from "../support/eventually.ts"
import { send } from "../support/httpRequest.ts"
import { openWatch } from "../support/openWatch.ts"
import { home } from "./vocabularyB/homes.ts"

/**
 * `--deprecate-vocabulary-a[=DATE]` (docs/configuration.md, docs/reference.md §6.3): A's answers carry
 * `Deprecation` (RFC 9745), a `Link` to the migration guide and, with a DATE, `Sunset` (RFC 8594); B's
 * never do, nor A's without the flag. A watch socket in A is noted in the log, and once a period the log
 * names the tokens that still called A.
 */

const deprecationHeaders = ["deprecation", "sunset", "link"] as const

/** The deprecation headers an answer carries, by name (absent ones left out). */
const noticeOf = (headers: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(deprecationHeaders.flatMap((name) => (headers[name] === undefined ? [] : [[name, headers[name]]])))

const tagInA = { set: [{ id: { Exactly: "getter:kitchen-light-on@b" } }], tags: ["old-app"] }
const tagInB = { set: { id: "getter:kitchen-light-on@b" }, tags: ["new-app"] }

/** One answer of each kind: A's paths (a success and a refusal), the shared path read in each vocabulary, B's. */
const answersOf = async (gateway: GatewayOverHttp) => ({
  nodes: noticeOf((await gateway.call("GET", "/api/v1/nodes")).headers),
  nodesRefused: noticeOf((await gateway.call("DELETE", "/api/v1/nodes")).headers),
  tagInA: noticeOf((await gateway.call("POST", "/api/v1/channels/tag", tagInA)).headers),
  tagInB: noticeOf((await gateway.call("POST", "/api/v1/channels/tag", tagInB)).headers),
  services: noticeOf((await gateway.call("GET", "/api/v1/services")).headers),
  health: noticeOf((await gateway.call("GET", "/health")).headers)
})

/** One token and its count in a report line. */
const tokenCount = "token \\d+ \\(\\d+ calls?\\)"

const link = "</docs/migrating-a-to-b.md>; rel=\"deprecation\"; type=\"text/markdown\""

describe("without --deprecate-vocabulary-a", () => {
  const suite = gatewayForSuite(home)

  it("no answer carries a deprecation header", async () => {
    const gateway = suite()
    expect(await answersOf(gateway)).toEqual({ nodes: {}, nodesRefused: {}, tagInA: {}, tagInB: {}, services: {}, health: {} })
  })
})

describe("--deprecate-vocabulary-a without a date", () => {
  const started = Date.now()
  const suite = gatewayForSuite(home, { deprecateVocabularyA: Option.some({ sunset: Option.none() }) }, { captureLogs: true })

  it("A's answers say since when A is deprecated and link to the guide; B's and the others' say nothing", async () => {
    const gateway = suite()
    const answers = await answersOf(gateway)
    const deprecated = { deprecation: expect.stringMatching(/^@\d+$/), link }
    expect(answers).toEqual({ nodes: deprecated, nodesRefused: deprecated, tagInA: deprecated, tagInB: {}, services: {}, health: {} })
    // RFC 9745: a structured-field date, seconds since the epoch; here the gateway's start.
    const since = Number(String(answers.nodes["deprecation"]).slice(1)) * 1000
    expect(since).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000)
    expect(since).toBeLessThanOrEqual(Date.now())
  })

  it("serves the guide the Link points at, without a token", async () => {
    const gateway = suite()
    const reply = await send(`${gateway.baseUrl}/docs/migrating-a-to-b.md`)
    expect(reply.status).toBe(200)
    expect(reply.headers["content-type"]).toBe("text/markdown; charset=utf-8")
    expect(reply.body).toMatch(/^# Migrating from vocabulary A to vocabulary B\n/)
  })

  it("notes a watch socket in A in the log, and not one in B", async () => {
    const gateway = suite()
    const { id, token } = await gateway.createToken()
    const b = await openWatch({ baseUrl: gateway.baseUrl, token })
    b.send([{ select: { id: "getter:kitchen-light-on@b" } }])
    await b.next()
    const a = await openWatch({ baseUrl: gateway.baseUrl, token })
    a.send([{ source: { id: { Exactly: "getter:kitchen-light-on@b" } }, should_watch_topology: true }])
    await a.next()
    await a.close()
    await b.close()
    expect(gateway.logs().filter((line) => line.includes(`token ${id} `))).toEqual([
      `INFO the watch socket of token ${id} speaks vocabulary A: vocabulary A is deprecated (docs/migrating-a-to-b.md)`
    ])
  })
})

describe("--deprecate-vocabulary-a=DATE", () => {
  const sunset = new Date("2099-06-30T00:00:00Z")
  const suite = gatewayForSuite(home, { deprecateVocabularyA: Option.some({ sunset: Option.some(sunset) }) })

  it("A's answers also say when A goes away, as an HTTP-date", async () => {
    const gateway = suite()
    const answers = await answersOf(gateway)
    const deprecated = { deprecation: expect.stringMatching(/^@\d+$/), sunset: "Tue, 30 Jun 2099 00:00:00 GMT", link }
    expect(answers).toEqual({ nodes: deprecated, nodesRefused: deprecated, tagInA: deprecated, tagInB: {}, services: {}, health: {} })
  })
})

describe("--deprecate-vocabulary-a=DATE with the date already past", () => {
  const sunset = new Date("2001-02-03T04:05:06Z")
  const suite = gatewayForSuite(home, { deprecateVocabularyA: Option.some({ sunset: Option.some(sunset) }) })

  it("says A was deprecated no later than its sunset", async () => {
    const gateway = suite()
    const { headers } = await gateway.call("GET", "/api/v1/nodes")
    expect(noticeOf(headers)).toEqual({ deprecation: `@${sunset.getTime() / 1000}`, sunset: "Sat, 03 Feb 2001 04:05:06 GMT", link })
  })
})

describe("the report of the tokens that still call A", () => {
  const suite = gatewayForSuite(home, {
      deprecateVocabularyA: Option.some({ sunset: Option.none() }),
      vocabularyAReportMs: 100
    }, { captureLogs: true })

  it("names each token that called A since the last report, by id, with its count, and none that called only B", async () => {
    const gateway = suite()
    const old = await gateway.createToken()
    const other = await gateway.createToken()
    const renewed = await gateway.createToken()
    const as = (token: string) => ({ authorization: `Bearer ${token}` })
    await gateway.call("GET", "/api/v1/nodes", undefined, as(old.token))
    await gateway.call("POST", "/api/v1/channels/tag", tagInA, as(old.token))
    await gateway.call("GET", "/api/v1/nodes", undefined, as(other.token))
    await gateway.call("GET", "/api/v1/services", undefined, as(renewed.token))
    // The requests may fall on either side of a report: their counts are summed over the reports.
    const reports = () => Promise.resolve(gateway.logs().filter((line) => line.includes("tokens that still called vocabulary A")))
    const totals = (lines: ReadonlyArray<string>) => {
      const counts = new Map<number, number>()
      for (const line of lines) {
        for (const [, token, calls] of line.matchAll(/token (\d+) \((\d+) calls?\)/g)) {
          counts.set(Number(token), (counts.get(Number(token)) ?? 0) + Number(calls))
        }
      }
      return Object.fromEntries(counts)
    }
    const lines = await eventuallyAsync(reports, (found) => totals(found)[old.id] === 2 && totals(found)[other.id] === 1)
    expect(totals(lines)).toEqual({ [old.id]: 2, [other.id]: 1 })
    for (const line of lines) {
      expect(line).toMatch(new RegExp(
        `^INFO tokens that still called vocabulary A since the last report: ${tokenCount}(, ${tokenCount})*; ` +
          "vocabulary A is deprecated \\(docs/migrating-a-to-b\\.md\\)$"
      ))
    }
  })

  it("names the tokens counted together as other tokens, after those named by id", () => {
    const deprecation = { since: 0, sunset: Option.none() }
    const calls = callsSince(
      new Map<TokenSeries, number>([[3, 1], ["other", 2]]),
      new Map<TokenSeries, number>([["other", 5], [7, 1], [3, 4], [9, 2]])
    )
    expect(reportLine(calls, deprecation)).toBe(
      `tokens that still called vocabulary A since the last report: token 3 (3 calls), token 7 (1 call), token 9 (2 calls), other tokens (3 calls); ${deprecationNotice(deprecation)}`
    )
  })
})
