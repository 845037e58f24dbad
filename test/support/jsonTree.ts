/**
 * Parsed JSON as a tree of entries, to compare two readings exactly: an object's keys in their order
 * (`__proto__` included, as a key like any other), `-0` apart from `0` (vitest's `toStrictEqual` tells
 * them apart), and nothing a structured clone between threads could re-read as a key.
 */
export type JsonTree =
  | null
  | boolean
  | number
  | string
  | { readonly array: ReadonlyArray<JsonTree> }
  | { readonly object: ReadonlyArray<readonly [string, JsonTree]> }

export const jsonTree = (json: unknown): JsonTree => {
  if (json === null || typeof json === "boolean" || typeof json === "number" || typeof json === "string") return json
  if (Array.isArray(json)) return { array: json.map(jsonTree) }
  if (typeof json === "object") return { object: Object.entries(json).map(([key, value]) => [key, jsonTree(value)] as const) }
  throw new Error(`not JSON: ${typeof json}`)
}
