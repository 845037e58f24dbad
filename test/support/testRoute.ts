import { Effect, identity, Schema } from "effect"
import { HttpServerRequest } from "effect/http"
import { open } from "../../src/api/Access.ts"
import { endpoint, type Method, type Path } from "../../src/api/Endpoint.ts"
import { bind } from "../../src/http/routing/Handlers.ts"
import type { HttpError } from "../../src/http/routing/HttpError.ts"
import { IncomingRequest } from "../../src/http/routing/IncomingRequest.ts"
import { platformRequestOf } from "./platformRequest.ts"

/**
 * A route for a test, answered by `handler`, which reads the request itself (the gateway's
 * IncomingRequest, or the platform's request over it); its answer is sent as JSON, as it is.
 */
export const testRoute = <R>(method: Method, path: Path, handler: Effect.Effect<unknown, HttpError, R>) =>
  bind(
    endpoint({
      operationId: `${method} ${path}`,
      method,
      path,
      access: open,
      tag: "health",
      summary: "A test route",
      description: "",
      answer: { status: 200, shape: { wire: Schema.Unknown, write: identity, read: identity }, description: "" }
    }),
    () => Effect.provideServiceEffect(handler, HttpServerRequest.HttpServerRequest, IncomingRequest.useSync(platformRequestOf))
  )
