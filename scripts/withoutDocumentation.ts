import { parse } from "@babel/parser"
import type { Node } from "@babel/types"
import type { Plugin } from "esbuild"
import { readFile } from "node:fs/promises"

/**
 * The words of the API's documentation left out of the dashboard's bundles: the descriptions and
 * summaries that src/api, src/vocabulary and src/domain give routes, wire schemas and their fields are
 * read only to write the OpenAPI document, which a browser never builds. Each such text (a string, a
 * template without substitutions, or a sum of them) becomes `""`, so every object keeps its shape; a
 * text made from values (a template with substitutions, a function of the server's limits) stays.
 */

/** Properties whose text is documentation (`description`, `summary`, and an alias's `why`); a route's `errors` holds texts by status. */
const documentingKeys: ReadonlySet<string> = new Set(["description", "summary", "why"])

/**
 * Calls whose last argument, when it is a fixed text, is a description: the fields of a wire record
 * (src/vocabulary/common/WireRecord.ts), tag bodies, and request bodies (src/api/Bodies.ts).
 */
const describingCalls: ReadonlySet<string> = new Set(["field", "partial", "optional", "tagBody", "writeBody"])

/** Whether `node` is a fixed text: a string, a template without substitutions, or a sum of fixed texts. */
const fixedText = (node: Node): boolean =>
  node.type === "StringLiteral" ||
  (node.type === "TemplateLiteral" && node.expressions.length === 0) ||
  (node.type === "BinaryExpression" && node.operator === "+" && fixedText(node.left) && fixedText(node.right))

const keyName = (node: Node): string | undefined =>
  node.type === "Identifier" ? node.name : node.type === "StringLiteral" ? node.value : undefined

const calleeName = (node: Node): string | undefined =>
  node.type === "MemberExpression" ? keyName(node.property) : keyName(node)

/** The spans of `program` that are documentation texts. */
const documentationTexts = (program: Node): ReadonlyArray<readonly [number, number]> => {
  const spans: Array<readonly [number, number]> = []
  const text = (node: Node | null | undefined) => {
    if (node !== null && node !== undefined && fixedText(node) && node.start != null && node.end != null) spans.push([node.start, node.end])
  }
  const pending: Array<unknown> = [program]
  while (pending.length > 0) {
    const next = pending.pop()
    if (Array.isArray(next)) {
      pending.push(...next)
      continue
    }
    if (next === null || typeof next !== "object" || !("type" in next)) continue
    const node = next as Node
    if (node.type === "ObjectProperty" && !node.computed && documentingKeys.has(keyName(node.key) ?? "")) text(node.value)
    else if (node.type === "ObjectProperty" && !node.computed && keyName(node.key) === "errors" && node.value.type === "ObjectExpression") {
      for (const status of node.value.properties) if (status.type === "ObjectProperty") text(status.value)
    } else if (node.type === "CallExpression" && describingCalls.has(calleeName(node.callee) ?? "")) {
      const last = node.arguments.at(-1)
      if (last !== undefined && last.type !== "SpreadElement" && last.type !== "ArgumentPlaceholder") text(last)
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== "loc" && key !== "leadingComments" && key !== "trailingComments" && key !== "innerComments") pending.push(value)
    }
  }
  return spans
}

/** `source` (TypeScript) with its documentation texts emptied. */
export const withoutDocumentationTexts = (source: string): string => {
  const program = parse(source, { sourceType: "module", plugins: ["typescript"] }).program
  const spans = [...documentationTexts(program)].sort((a, b) => b[0] - a[0])
  let out = source
  for (const [start, end] of spans) out = `${out.slice(0, start)}""${out.slice(end)}`
  return out
}

/** The esbuild plugin: the modules of src/api, src/vocabulary and src/domain, loaded without their documentation texts. */
export const withoutDocumentation: Plugin = {
  name: "without-documentation",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/](api|vocabulary|domain)[\\/].+\.ts$/ }, async (args) => ({
      contents: withoutDocumentationTexts(await readFile(args.path, "utf8")),
      loader: "ts"
    }))
  }
}
