import { Effect, Result } from "effect"
import { type Method, ok, type Route, route } from "../RouteTable.ts"
import { openApiDocument } from "./OpenApiDocument.ts"

export const openApiPath = "/api/v1/openapi.json"

/**
 * `GET /api/v1/openapi.json`: the document of `routes` and of itself, built once when the routes are
 * assembled. A route without a description is a bug the openapi test reports; should one slip through,
 * the server still starts and only this route fails (a 500, with the missing routes in the log).
 */
export const openApiRoutes = (
  routes: ReadonlyArray<{ readonly method: Method; readonly path: string }>
): ReadonlyArray<Route> => {
  const answer = Result.match(openApiDocument([...routes, { method: "GET", path: openApiPath }]), {
    onSuccess: (document) => Effect.succeed(ok(document)),
    onFailure: (undocumented) => Effect.die(undocumented)
  })
  return [route("GET", openApiPath, answer)]
}
