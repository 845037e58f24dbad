import * as Effect from "effect/Effect"
import { documentation } from "../../api/Documentation.ts"
import { type RouteOf, routesOf } from "../../api/Endpoint.ts"
import { bindGroup } from "../routing/Handlers.ts"
import { type OpenApiDocument, openApiDocument } from "./OpenApiDocument.ts"

/**
 * `GET /api/v1/openapi.json`: the document of `routes` and of itself, built once, on its first request:
 * built when the routes were assembled, it was a fifth of every start's CPU (measured), for a document
 * most runs never serve.
 */
export const openApiRoutes = (routes: ReadonlyArray<RouteOf>) => {
  let document: OpenApiDocument | undefined
  const answer = Effect.sync(() => (document ??= openApiDocument([...routes, ...routesOf(documentation.get_openapi_document)])))
  return bindGroup(documentation, { get_openapi_document: () => answer })
}
