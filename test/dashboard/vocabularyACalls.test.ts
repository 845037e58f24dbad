import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { vocabularyACalls } from "../../src/dashboard/api/VocabularyACalls.ts"
import { parseScrape } from "../support/prometheusText.ts"

/** The dashboard's reading of vocabulary A's calls by token from `GET /metrics`'s text. */

const family = (samples: ReadonlyArray<readonly [string, number]>) => [
  "# HELP gateway_vocabulary_a_calls_total Requests and watch sockets in vocabulary A, by token id.",
  "# TYPE gateway_vocabulary_a_calls_total counter",
  ...samples.map(([labels, calls]) => `gateway_vocabulary_a_calls_total{${labels}} ${calls}`)
]

describe("vocabularyACalls", () => {
  it("reads each token's calls, most first, passing over the other families and the comments", () => {
    const text = [
      "# HELP gateway_http_requests_total Requests answered.",
      "# TYPE gateway_http_requests_total counter",
      `gateway_http_requests_total{vocabulary="a",operation="get_nodes",status="200"} 120`,
      ...family([[`token="7"`, 3], [`token="12"`, 124], [`token="3"`, 3]]),
      `gateway_watch_sockets{vocabulary="a"} 1`,
      ""
    ].join("\n")
    expect(vocabularyACalls(text)).toEqual([{ token: 12, calls: 124 }, { token: 3, calls: 3 }, { token: 7, calls: 3 }])
  })

  it("finds the token among other labels, whatever their order and escapes, and reads a value written with an exponent", () => {
    const text = family([[`shard="a \\"b\\" {c}",token="5",zone="x\\\\y"`, 2e3], [`token="6"`, 1]]).join("\n")
    expect(vocabularyACalls(text)).toEqual([{ token: 5, calls: 2000 }, { token: 6, calls: 1 }])
  })

  it("reads the tokens counted together, token=\"other\", after the tokens with as many calls", () => {
    const text = family([[`token="other"`, 5], [`token="4"`, 5], [`token="9"`, 7]]).join("\n")
    expect(vocabularyACalls(text)).toEqual([{ token: 9, calls: 7 }, { token: 4, calls: 5 }, { token: "other", calls: 5 }])
  })

  it("answers nothing when no token called A, and passes over a sample without a token id", () => {
    expect(vocabularyACalls("# TYPE gateway_vocabulary_a_calls_total counter\n")).toEqual([])
    expect(vocabularyACalls(family([[`token=""`, 1], [`user="7"`, 2]]).join("\n"))).toEqual([])
    expect(vocabularyACalls("gateway_vocabulary_a_calls_total_created{token=\"7\"} 1\n")).toEqual([])
  })

  it("reads what a Prometheus text parser from npm reads, on any set of tokens among other families", () => {
    const samples = fc.uniqueArray(fc.tuple(fc.nat({ max: 100_000 }), fc.nat({ max: 1_000_000 })), { selector: ([token]) => token })
    fc.assert(fc.property(samples, (calls) => {
      const text = [
        `gateway_http_requests_total{vocabulary="b",operation="get_services",status="200"} 5`,
        ...(calls.length === 0 ? [] : family(calls.map(([token, count]) => [`token="${token}"`, count]))),
        `gateway_watch_sockets{vocabulary="a"} 1`,
        ""
      ].join("\n")
      const parsed = parseScrape(text)
        .find((f) => f.name === "gateway_vocabulary_a_calls_total")
        ?.metrics.map((m) => ({ token: Number(m.labels?.["token"]), calls: Number(m.value) })) ?? []
      expect(vocabularyACalls(text)).toEqual([...parsed].sort((x, y) => y.calls - x.calls || x.token - y.token))
    }))
  })
})
