import * as Schema from "effect/Schema"
import { DOCS } from "../vocabulary/common/Docs.ts"
import { endpoint, group, openBodyLimit } from "./Endpoint.ts"
import { anyToken, open } from "./Access.ts"

/** The OpenAPI document of the API, served by the API itself. */
export const documentation = group(endpoint({
  operationId: "get_openapi_document",
  method: "GET",
  path: "/api/v1/openapi.json",
  access: anyToken,
  tag: "documentation",
  summary: DOCS ? "This document" : "",
  description: DOCS ? "The OpenAPI 3.1 document of every route the server answers." : "",
  answer: {
    status: 200,
    // Written as it is: the server builds it as JSON.
    shape: { wire: Schema.Record(Schema.String, Schema.Json), write: (document: object) => document, read: (json: object) => json },
    description: DOCS ? "An OpenAPI 3.1 document." : ""
  }
}))

/** The guide to moving an app from vocabulary A to B, which A's answers link to when A is deprecated. */
export const migrationGuide = group(endpoint({
  operationId: "get_migration_guide",
  method: "GET",
  path: "/docs/migrating-a-to-b.md",
  access: open,
  bodyLimit: openBodyLimit,
  tag: "documentation",
  summary: DOCS ? "The guide from vocabulary A to B" : "",
  description: DOCS ? "docs/migrating-a-to-b.md of the gateway's installation, without a token: the `Link` of A's answers points " +
    "here when A is deprecated (`--deprecate-vocabulary-a`)." : "",
  answer: {
    status: 200,
    shape: { wire: Schema.String, write: (text: string) => text, read: (text: string) => text },
    mediaType: "text/markdown; charset=utf-8",
    description: DOCS ? "The guide, in Markdown." : ""
  },
  errors: { "404": DOCS ? "The gateway's installation holds no docs folder." : "" }
}))
