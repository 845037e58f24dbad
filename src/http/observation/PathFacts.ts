import { api, endpointsOf } from "../../api/Api.ts"
import { routesOf, type Tag } from "../../api/Endpoint.ts"
import type { VocabularyLabel } from "./RequestMetrics.ts"

/**
 * What a request's path tells before the request runs, from the endpoints of the API, which describe
 * every route: the group its endpoints are listed under, the vocabulary it speaks (`unknown` for a
 * shared path, until its request says which), and the operation of each method (an alias counts as its
 * endpoint's operation).
 */
export interface PathFacts {
  readonly tag: Tag
  readonly vocabulary: VocabularyLabel
  readonly operations: ReadonlyMap<string, string>
}

const vocabularyOf = (tag: Tag): VocabularyLabel =>
  tag === "vocabulary A" ? "a" : tag === "vocabulary B" ? "b" : tag === "shared" || tag === "watching" ? "unknown" : "none"

const byPath = new Map<string, { readonly tag: Tag; readonly vocabulary: VocabularyLabel; readonly operations: Map<string, string> }>()
for (const { path, method, endpoint } of endpointsOf(api).flatMap(routesOf)) {
  const facts = byPath.get(path) ?? { tag: endpoint.tag, vocabulary: vocabularyOf(endpoint.tag), operations: new Map<string, string>() }
  byPath.set(path, facts)
  facts.operations.set(method, endpoint.operationId)
}

/** The facts of a path the gateway serves; `undefined` for any other (a 404). */
export const pathFacts = (path: string): PathFacts | undefined => byPath.get(path)
