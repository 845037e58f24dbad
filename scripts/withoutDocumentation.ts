import { parse } from "@babel/parser"
import type { Node } from "@babel/types"
import type { Plugin } from "esbuild"
import { readFile } from "node:fs/promises"

/**
 * The words of the API's documentation left out of the dashboard's bundles: the descriptions and
 * summaries that src/api, src/vocabulary and src/domain give routes, wire schemas and their fields are
 * read only to write the OpenAPI document, which a browser never builds. The value of every such
 * property of an object literal (whatever makes it: a text, a template, a function of the server's
 * limits) becomes `""`, so every object keeps its shape and what only built the text is left unused;
 * so does a fixed text given last to a call that takes a description.
 */

/** Properties whose value is documentation (`description`, `summary`, and an alias's `why`); a route's `errors` holds texts by status. */
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
  const span = (node: Node) => {
    if (node.start != null && node.end != null) spans.push([node.start, node.end])
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
    if (node.type === "ObjectExpression") {
      for (const property of node.properties) {
        if (property.type !== "ObjectProperty" || property.computed || property.shorthand) continue
        const key = keyName(property.key)
        if (key !== undefined && documentingKeys.has(key)) span(property.value)
        else if (key === "errors" && property.value.type === "ObjectExpression") {
          for (const status of property.value.properties) if (status.type === "ObjectProperty" && !status.shorthand) span(status.value)
        }
      }
    } else if (node.type === "CallExpression" && describingCalls.has(calleeName(node.callee) ?? "")) {
      const last = node.arguments.at(-1)
      if (last !== undefined && fixedText(last)) span(last)
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== "loc" && key !== "leadingComments" && key !== "trailingComments" && key !== "innerComments") pending.push(value)
    }
  }
  return spans
}

/** The spans not within another (a text emptied takes what it holds with it), in source order. */
const outermost = (spans: ReadonlyArray<readonly [number, number]>): ReadonlyArray<readonly [number, number]> => {
  const kept: Array<readonly [number, number]> = []
  for (const span of [...spans].sort((a, b) => a[0] - b[0] || b[1] - a[1])) {
    const last = kept.at(-1)
    if (last === undefined || span[0] >= last[1]) kept.push(span)
  }
  return kept
}

/** `source` (TypeScript) with its documentation texts emptied. */
export const withoutDocumentationTexts = (source: string): string => {
  const program = parse(source, { sourceType: "module", plugins: ["typescript"] }).program
  let out = source
  // From the end, so that the offsets of the spans before still hold.
  for (const [start, end] of [...outermost(documentationTexts(program))].reverse()) out = `${out.slice(0, start)}""${out.slice(end)}`
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
