import * as Effect from "effect/Effect"
import { documentation } from "../../api/Documentation.ts"
import { type RouteOf, routesOf } from "../../api/Endpoint.ts"
import { bindGroup } from "../routing/Handlers.ts"
import { openApiDocument } from "./OpenApiDocument.ts"

/**
 * `GET /api/v1/openapi.json`: the document of `routes` and of itself, built once when the routes are
 * assembled.
 */
export const openApiRoutes = (routes: ReadonlyArray<RouteOf>) => {
  const answer = Effect.succeed(openApiDocument([...routes, ...routesOf(documentation.get_openapi_document)]))
  return bindGroup(documentation, { get_openapi_document: () => answer })
}
