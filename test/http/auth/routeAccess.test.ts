import { describe, expect, it } from "vitest"
import { rightOf } from "../../../src/api/Access.ts"
import { Right } from "../../../src/domain/Access.ts"
import { anyChannel } from "../../../src/domain/Selector.ts"
import { routes } from "../../../src/main.ts"
import { gatewayForSuite } from "../../support/gatewayOverHttp.ts"
import { send } from "../../support/httpRequest.ts"
import { home } from "../vocabularyB/homes.ts"

/**
 * Each served route's access (src/api/Access.ts) is what the gateway does: a description that lies (a right
 * the route does not need, an open route that asks for a token, a token route that does not) fails here.
 * Every route the server answers is checked, aliases included, by its method and path.
 */

const gateway = gatewayForSuite(home)

const missingToken = JSON.stringify("a token is required: send Authorization: Bearer <token>, or ?auth=<token>")

const request = (method: string, path: string, token?: string) =>
  send(`${gateway().baseUrl}${path}`, { method, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } })

const sessionOnly = JSON.stringify("only a session (a sign-in) gets a comparison token")

const where = (route: { readonly method: string; readonly path: string }) => `${route.method} ${route.path}`

const scoped = async (rights: ReadonlyArray<Right>) => (await gateway().createToken({ scope: { channels: [anyChannel], rights } })).token

describe("a route's access", () => {
  it("names a right for every route of both vocabularies, the watch and /metrics", () => {
    const withRight = routes.filter((r) => rightOf(r.endpoint.access) !== undefined).map(where)
    expect(withRight).toEqual(expect.arrayContaining([
      "GET /api/v1/services",
      "POST /api/v1/services",
      "PUT /api/v1/channels/set",
      "POST /api/v1/nodes/tag",
      "POST /api/v1/channels/tag",
      "GET /api/v1/channels/watch",
      "GET /metrics",
      "GET /api/v1/tokens",
      "POST /api/v1/tokens",
      "POST /api/v1/tokens/revoke"
    ]))
    expect(withRight.length).toBeGreaterThan(25)
  })

  it("when it names a right: a token with every other right gets 403, a token with that right alone does not", async () => {
    for (const route of routes) {
      const right = rightOf(route.endpoint.access)
      if (right === undefined) continue
      const lacking = await request(route.method, route.path, await scoped(Right.literals.filter((r) => r !== right)))
      expect({ route: where(route), status: lacking.status, body: lacking.body }).toEqual({
        route: where(route),
        status: 403,
        body: JSON.stringify(`this token does not grant the "${right}" right`)
      })
      const holding = await request(route.method, route.path, await scoped([right]))
      // The comparison token is a session's alone (docs/auth.md): an API token holding the right is refused for what it is, not for a right.
      const refusal = where(route) === "POST /api/v1/tokens/comparison" ? sessionOnly : undefined
      expect({ route: where(route), refused: [401, 403].includes(holding.status) ? holding.body : undefined })
        .toEqual({ route: where(route), refused: refusal })
    }
  })

  it("when it asks only for a token: no token gets 401, a token without any right is let in", async () => {
    const tokenOnly = routes.filter((r) => r.endpoint.access._tag === "Token")
    expect(tokenOnly.map(where).sort()).toEqual([
      "GET /api/v1/openapi.json",
      "POST /users/logout"
    ])
    for (const route of tokenOnly) {
      expect({ route: where(route), ...(await request(route.method, route.path)) }).toMatchObject({ route: where(route), status: 401 })
      // A token of its own: logout revokes the one it is given.
      const answered = await request(route.method, route.path, await scoped([]))
      expect({ route: where(route), refused: [401, 403].includes(answered.status) }).toEqual({ route: where(route), refused: false })
    }
  })

  it("when it is open: answered without a token", async () => {
    const open = routes.filter((r) => r.endpoint.access._tag === "Open")
    expect(open.map(where).sort()).toEqual([
      "GET /docs/migrating-a-to-b.md",
      "GET /health",
      "GET /ping",
      "GET /users/setup",
      "HEAD /health",
      "HEAD /ping",
      "POST /users/login",
      "POST /users/setup"
    ])
    for (const route of open) {
      const answered = await request(route.method, route.path)
      // Login answers 401 without its Basic credentials, but never asks for a token.
      expect({ route: where(route), asksForToken: answered.body === missingToken }).toEqual({ route: where(route), asksForToken: false })
    }
  })
})
