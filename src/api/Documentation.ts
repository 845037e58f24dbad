import { Schema } from "effect"
import { endpoint, group } from "./Endpoint.ts"

/** The OpenAPI document of the API, served by the API itself. */
export const documentation = group(endpoint({
  operationId: "get_openapi_document",
  method: "GET",
  path: "/api/v1/openapi.json",
  tag: "documentation",
  summary: "This document",
  description: "The OpenAPI 3.1 document of every route the server answers.",
  answer: {
    status: 200,
    // Written as it is: the server builds it as JSON.
    shape: { wire: Schema.Record(Schema.String, Schema.Json), write: (document: object) => document, read: (json: object) => json },
    description: "An OpenAPI 3.1 document."
  }
}))
