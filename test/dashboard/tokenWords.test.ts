import * as Option from "effect/Option"
import { describe, expect, it } from "vitest"
import type { TokenView } from "../../src/client/index.ts"
import { madeBy, tokenName } from "../../src/dashboard/text/TokenWords.ts"

/** The Tokens page's words for a token, and what revoking one takes with it (src/dashboard/text/TokenWords.ts). */

const token = (id: number, more: Partial<TokenView> = {}): TokenView => ({
  id,
  kind: "api",
  label: `t${id}`,
  status: "active",
  scope: Option.none(),
  createdAt: 0,
  expiresAt: null,
  lastUsedAt: null,
  createdBy: null,
  current: false,
  ...more
})

describe("madeBy", () => {
  it("answers every token made from it, down every generation, through tokens revoked already, and nothing else", () => {
    const tokens = [
      token(1),
      token(2, { createdBy: 1, status: "revoked" }),
      token(3, { createdBy: 2 }),
      token(4, { createdBy: 1 }),
      token(5),
      token(6, { createdBy: 5 })
    ]
    expect(madeBy(token(1), tokens).map((t) => t.id).sort()).toEqual([2, 3, 4])
    expect(madeBy(token(4), tokens)).toEqual([])
  })
})

describe("tokenName", () => {
  it("names this tab's session as this browser, another by when it signed in, the Migration page's as such, an API token by its label or id", () => {
    expect(tokenName(token(1, { kind: "session", current: true }))).toBe("This browser")
    expect(tokenName(token(2, { kind: "session" }))).toMatch(/^Session signed in /)
    expect(tokenName(token(3, { kind: "comparison", label: "anything" }))).toBe("The Migration page's comparisons")
    expect([tokenName(token(4)), tokenName(token(5, { label: "" }))]).toEqual(["t4", "Token 5"])
  })
})
