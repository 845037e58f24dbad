import { Option, Result } from "effect"
import { describe, expect, it } from "vitest"
import { dayMs } from "../../src/auth/Tokens.ts"
import { parseLifetime, parseScope } from "../../src/cli/TokensCommand.ts"

describe("tokens create --expires", () => {
  const now = 1_000_000

  it("reads minutes, hours, days, and never", () => {
    expect(parseLifetime("30m", now)).toEqual(Result.succeed(Option.some(now + 30 * 60_000)))
    expect(parseLifetime("12h", now)).toEqual(Result.succeed(Option.some(now + 12 * 3_600_000)))
    expect(parseLifetime("90d", now)).toEqual(Result.succeed(Option.some(now + 90 * dayMs)))
    expect(parseLifetime("never", now)).toEqual(Result.succeed(Option.none()))
  })

  it("refuses anything else with a message naming the flag", () => {
    for (const text of ["", "0d", "-1d", "1w", "1.5d", "d", "forever", "9999999d"]) {
      expect(Result.isFailure(parseLifetime(text, now)) && parseLifetime(text, now)).toMatchObject({ failure: expect.stringMatching(/^--expires: /) })
    }
  })
})

describe("tokens create --scope", () => {
  it("reads vocabulary B channel selectors (one or an array) and rights", () => {
    const scope = parseScope("{\"channels\": {\"tags\": [\"hall\"]}, \"rights\": [\"read\", \"write\", \"read\"]}")
    expect(Result.map(scope, (s) => ({ selectors: s.channels.length, rights: s.rights }))).toEqual(
      Result.succeed({ selectors: 1, rights: ["read", "write"] })
    )
  })

  it("refuses bad JSON, unknown fields, unknown rights, a missing part and too many selectors", () => {
    const tooMany = JSON.stringify({ channels: Array.from({ length: 33 }, (_, i) => ({ tags: [`t${i}`] })), rights: ["read"] })
    for (const [text, message] of [
      ["{", "--scope: invalid JSON"],
      ["{\"channels\": {}, \"rights\": [\"read\"], \"users\": []}", "--scope: scope: unknown field \"users\""],
      ["{\"channels\": {}, \"rights\": [\"admin\"]}", "--scope: scope.rights[0]: expected one of"],
      ["{\"channels\": {}}", "--scope: scope: missing field \"rights\""],
      ["{\"channels\": {\"kind\": \"Toaster\"}, \"rights\": []}", "--scope: scope.channels.kind"],
      [tooMany, "--scope: 33 selectors, at most 32"]
    ] as const) {
      const parsed = parseScope(text)
      expect({ text, failure: Result.isFailure(parsed) ? parsed.failure : "accepted" }).toEqual({ text, failure: expect.stringContaining(message) })
    }
  })
})
