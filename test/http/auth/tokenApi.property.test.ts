import * as fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { callAs, type GatewayOverHttp, startGateway } from "../../support/gatewayOverHttp.ts"
import { home } from "../vocabularyB/homes.ts"

/**
 * Tokens over HTTP (issue 23, item 3) on random scopes: a scoped token's request for a token that
 * reaches more, or may do more, is refused with 403, in words that name nothing of the home; one within
 * its reach is created, and the new token sees exactly what its own scope selects, all of it within
 * what its creator sees. Over real HTTP, on the real SQLite store.
 */

interface ScopeJson {
  readonly channels: ReadonlyArray<Readonly<Record<string, unknown>>>
  readonly rights: ReadonlyArray<string>
}

const rights = ["read", "write", "watch", "tag"] as const

// The pools of the home, so that random selectors often hit, miss and overlap.
const services = home.services.map((s) => s.id)
const channels = home.services.flatMap((s) => [...s.getters, ...(s.setters ?? [])])
const channelIds = channels.map((c) => c.id)
const serviceTags: ReadonlyArray<string> = [...new Set(home.services.flatMap((s) => s.tags ?? []))]
const channelTags: ReadonlyArray<string> = [...new Set(channels.flatMap((c) => ("tags" in c ? (c.tags as ReadonlyArray<string>) : [])))]
const kinds = [...new Set(channels.flatMap((c) => (typeof c.kind === "string" ? [c.kind] : [])))]

/** What a selector may constrain, each field at most once: a vocabulary B selector of the `--scope` language. */
const fieldValues = {
  id: fc.constantFrom(...channelIds),
  service: fc.constantFrom(...services),
  kind: fc.constantFrom(...kinds),
  tags: fc.uniqueArray(fc.constantFrom(...channelTags), { minLength: 1, maxLength: 2 }),
  service_tags: fc.uniqueArray(fc.constantFrom(...serviceTags), { minLength: 1, maxLength: 2 })
}

type Field = keyof typeof fieldValues
const fields = Object.keys(fieldValues) as ReadonlyArray<Field>

/** One or two fields: sparse selectors, which a loosened or added field changes the most. */
const selectorJson: fc.Arbitrary<Readonly<Partial<Record<Field, unknown>>>> = fc
  .uniqueArray(fc.constantFrom(...fields), { minLength: 1, maxLength: 2 })
  .chain((names) => fc.tuple(...names.map((name) => fieldValues[name].map((value) => [name, value] as const))))
  .map((entries) => Object.fromEntries(entries))

/** A creating token's scope: it holds the `tokens` right, or it could create nothing. */
const scopeJson: fc.Arbitrary<ScopeJson> = fc.record({
  channels: fc.array(selectorJson, { minLength: 1, maxLength: 3 }),
  rights: fc.subarray([...rights], { minLength: 1 }).map((some) => [...some, "tokens"])
})

/** A scope within `outer` by construction: some of its selectors, each with more fields (or more tags), and some of its rights. */
const narrowedFrom = (outer: ScopeJson): fc.Arbitrary<ScopeJson> =>
  fc.record({
    channels: fc.array(
      fc.tuple(fc.constantFrom(...outer.channels), selectorJson).map(([own, more]) => {
        const merged: Record<string, unknown> = { ...more, ...own }
        for (const list of ["tags", "service_tags"] as const) {
          const tagsOf = (selector: Readonly<Record<string, unknown>>) => (selector[list] as ReadonlyArray<string> | undefined) ?? []
          const tags = [...new Set([...tagsOf(own), ...tagsOf(more)])]
          if (tags.length > 0) merged[list] = tags
        }
        return merged
      }),
      { minLength: 1, maxLength: 3 }
    ),
    rights: fc.subarray([...outer.rights], { minLength: 1 })
  })

/**
 * What a scoped token asks for: a scope narrowed from its own (within its reach), no scope, its scope
 * with a channel it does not see or a right it lacks (beyond), or one of its selectors loosened, or any
 * scope (either). `pick` chooses the
 * channel or right, among those the home leaves it.
 */
type Ask =
  | { readonly _tag: "Narrowed"; readonly scope: ScopeJson }
  | { readonly _tag: "Unscoped" }
  | { readonly _tag: "UnseenChannel"; readonly pick: number }
  | { readonly _tag: "MissingRight"; readonly pick: number }
  | { readonly _tag: "Loosened"; readonly pick: number; readonly field: Field }
  | { readonly _tag: "Any"; readonly scope: ScopeJson }

const asks = (outer: ScopeJson): fc.Arbitrary<Ask> =>
  fc.oneof(
    narrowedFrom(outer).map((scope): Ask => ({ _tag: "Narrowed", scope })),
    fc.constant<Ask>({ _tag: "Unscoped" }),
    fc.nat().map((pick): Ask => ({ _tag: "UnseenChannel", pick })),
    fc.nat().map((pick): Ask => ({ _tag: "MissingRight", pick })),
    fc.tuple(fc.nat(), fc.constantFrom(...fields))
      .map(([pick, field]): Ask => ({ _tag: "Loosened", pick, field })),
    scopeJson.map((scope): Ask => ({ _tag: "Any", scope }))
  )

/** The scope asked for (`null`: none), and whether it lies within the creator's reach; `undefined` when the home leaves no such ask. */
const asked = (ask: Ask, outer: ScopeJson, outerSees: ReadonlyArray<string>) => {
  const pick = <A>(from: ReadonlyArray<A>, n: number): A | undefined => from[n % Math.max(from.length, 1)]
  switch (ask._tag) {
    case "Narrowed":
      return { scope: ask.scope, within: true }
    case "Unscoped":
      return { scope: null, within: false }
    case "UnseenChannel": {
      const id = pick(channelIds.filter((c) => !outerSees.includes(c)), ask.pick)
      return id === undefined ? undefined : { scope: { ...outer, channels: [...outer.channels, { id }] }, within: false }
    }
    case "MissingRight": {
      const right = pick(rights.filter((r) => !outer.rights.includes(r)), ask.pick)
      return right === undefined ? undefined : { scope: { ...outer, rights: [...outer.rights, right] }, within: false }
    }
    case "Loosened": {
      // One of its selectors without one field, or one tag fewer: often wider than the creator's scope.
      const own = pick(outer.channels, ask.pick) ?? {}
      const value = own[ask.field]
      const { [ask.field]: _, ...without } = own
      const loosened = Array.isArray(value) && value.length > 1 ? { ...own, [ask.field]: value.slice(1) } : without
      return { scope: { ...outer, channels: [loosened] }, within: undefined }
    }
    case "Any":
      return { scope: ask.scope, within: undefined }
  }
}

let gateway: GatewayOverHttp
beforeAll(async () => {
  // Hundreds of tokens a minute are created here: a window of a millisecond lets them through.
  gateway = await startGateway(home, { tokenCreationWindowMs: 1 })
})
afterAll(() => gateway.close())

/** One request made with `token`. */
const as = (token: string, method: string, path: string, body?: unknown) => callAs(gateway, token, method, path, body)

/** The ids of the channels a token lists (getters and setters), sorted; with a body, those these selectors select. */
const channelsSeen = async (token: string, selectors?: ScopeJson["channels"]) => {
  const method = selectors === undefined ? "GET" : "POST"
  const lists = await Promise.all(["getters", "setters"].map((m) => as(token, method, `/api/v1/channels/${m}`, selectors)))
  for (const list of lists) expect(list.status).toBe(200)
  return lists.flatMap((list) => (list.json as ReadonlyArray<{ readonly id: string }>).map((c) => c.id)).sort()
}

/** Words of the home: a refusal must name none of them. */
const homeWords = new RegExp([...services, ...channelIds, ...serviceTags, ...channelTags].map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"))

describe("create_token from a scoped token", () => {
  it("refuses what reaches or may do more, in words naming nothing of the home; creates what lies within, and it sees only what it should", async () => {
    let created = 0
    let refused = 0
    const cases = scopeJson.chain((outer) => fc.tuple(fc.constant(outer), asks(outer)))
    await fc.assert(
      fc.asyncProperty(cases, async ([outer, ask]) => {
        const outerSees = await channelsSeen(gateway.token, outer.channels)
        const request = asked(ask, outer, outerSees)
        if (request === undefined) return
        const parent = await as(gateway.token, "POST", "/api/v1/tokens", { label: "parent", scope: outer })
        expect(parent.status).toBe(201)
        const parentToken = parent.json as { readonly id: number; readonly token: string }
        const answer = await as(parentToken.token, "POST", "/api/v1/tokens", { label: "child", scope: request.scope })
        if (request.scope === null || answer.status !== 201) {
          refused++
          expect({ status: answer.status, ask }).toEqual({ status: 403, ask })
          expect(request.within).not.toBe(true)
          expect(typeof answer.json).toBe("string")
          expect(answer.json).not.toMatch(homeWords)
        } else {
          created++
          expect(request.within).not.toBe(false)
          const child = answer.json as { readonly id: number; readonly token: string }
          const scope = request.scope
          if (scope.rights.includes("read")) {
            const seen = await channelsSeen(child.token)
            expect(seen).toEqual(await channelsSeen(gateway.token, scope.channels))
            expect(seen.filter((id) => !outerSees.includes(id))).toEqual([])
          } else {
            expect((await as(child.token, "GET", "/api/v1/channels/getters")).status).toBe(403)
          }
          // The creator manages it: it lists it, and may revoke it.
          const listed = await as(parentToken.token, "GET", "/api/v1/tokens")
          expect((listed.json as ReadonlyArray<{ readonly id: number }>).map((t) => t.id)).toContain(child.id)
          expect((await as(parentToken.token, "POST", "/api/v1/tokens/revoke", { id: child.id })).status).toBe(204)
          expect((await as(child.token, "GET", "/api/v1/tokens")).status).toBe(401)
        }
        expect((await as(gateway.token, "POST", "/api/v1/tokens/revoke", { id: parentToken.id })).status).toBe(204)
      }),
      { numRuns: 100 }
    )
    // Both sides were tried.
    expect({ created: created > 5, refused: refused > 5 }).toEqual({ created: true, refused: true })
  }, 120_000)
})
