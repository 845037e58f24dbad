import { Result, Schema, type SchemaAST, SchemaIssue } from "effect"
import { SchemaJITCompiler } from "effect/schema"
import { describeJson } from "./DescribeJson.ts"
import { type InputPath, InvalidInput } from "./InvalidInput.ts"
import { Unexpressible } from "./Unexpressible.ts"
import type { PartialWireShape, Wire } from "./WireShape.ts"
import { expectedGot, expectedOf, explanationOf } from "./WireSchema.ts"

/**
 * The one formatter of wire failures: the first problem of a Schema failure, where it is and what it is
 * in the client's words (`body[1].kind: unknown kind "Toaster" (known: …)`). Every decoder of both
 * vocabularies reports through it; the words come from the schemas' annotations (WireSchema.ts).
 */

/** How wire shapes are read: unknown fields are refused by name, and refused inputs are kept for the messages. */
export const parseOptions: SchemaAST.ParseOptions = { onExcessProperty: "error", reportInput: true }

/**
 * Where a misspelt or missing field is named: in the message at the object (`body: unknown field "kinds"
 * (a GetterSelector takes …)`), as request bodies say it, or in the path (`services[0].latency: unknown
 * field`), as the simulator's home file says it.
 */
export type KeyStyle = "message" | "path"

export interface Problem {
  readonly path: InputPath
  readonly reason: string
}

/** How a shape with no `expected` annotation is named. */
const nameOf = (ast: SchemaAST.AST): string => {
  switch (ast._tag) {
    case "String":
      return "a string"
    case "Number":
      return "a number"
    case "Boolean":
      return "a boolean"
    case "Null":
      return "null"
    case "Literal":
      return JSON.stringify(ast.literal)
    case "Arrays":
      return "an array"
    case "Objects":
      return "an object"
    default:
      return "something else"
  }
}

const named = (ast: SchemaAST.AST): string => expectedOf(ast) ?? nameOf(ast)

/** The fields a struct takes, in the order it declares them. */
const fieldsOf = (ast: SchemaAST.AST): ReadonlyArray<string> =>
  ast._tag === "Objects" ? ast.propertySignatures.map((p) => String(p.name)) : []

const parent = (path: InputPath): InputPath => path.slice(0, -1)

const lastKey = (path: InputPath): string => String(path[path.length - 1])

/** What the schema of `ast` says of `input`, if it explains its failures itself. */
const explained = (
  ast: SchemaAST.AST | undefined,
  issue: SchemaIssue.Issue,
  path: InputPath,
  style: KeyStyle
): Problem | undefined => {
  const explain = ast === undefined ? undefined : explanationOf(ast)
  if (explain === undefined || !SchemaIssue.hasInput(issue)) return undefined
  const explanation = explain(issue.input)
  if (typeof explanation === "string") return { path, reason: explanation }
  // A failed check holds the value read, not the input sent: it is explained in words or by its own message.
  if (checkFailed(issue)) return undefined
  // A schema that answers "my own structure explains it" is read structurally.
  if (explanation.ast === ast) return undefined
  const again = Schema.decodeUnknownResult(explanation, parseOptions)(issue.input)
  return Result.isFailure(again) ? problemOf(again.failure.issue, path, true, style) : undefined
}

/** Whether the input had the right shape and a check on what was read from it failed. */
const checkFailed = (issue: SchemaIssue.Issue): boolean =>
  issue._tag === "Composite" && issue.issues.every((inner) => inner._tag === "Filter")

const astOf = (issue: SchemaIssue.Issue): SchemaAST.AST | undefined => {
  switch (issue._tag) {
    case "InvalidType":
    case "Composite":
    case "Encoding":
    case "AnyOf":
    case "OneOf":
      return issue.ast
    default:
      return undefined
  }
}

/**
 * The first problem of `issue`, at `path`. Explanations are of inputs a client sent: an encoding failure
 * (something a vocabulary cannot say) is read without them.
 */
const problemOf = (issue: SchemaIssue.Issue, path: InputPath, decoding = true, style: KeyStyle = "message"): Problem => {
  const explanation = decoding ? explained(astOf(issue), issue, path, style) : undefined
  if (explanation !== undefined) return explanation
  switch (issue._tag) {
    case "Pointer":
      return problemOf(issue.issue, [...path, ...issue.path], decoding, style)
    case "Composite":
      return problemOf(issue.issues[0], path, decoding, style)
    case "Encoding":
      return problemOf(issue.issue, path, decoding, style)
    case "Filter": {
      // A filter's message is the one it returned for this input (maybe at a place within it), or its own.
      const inner = issue.issue
      const own = issue.filter.annotations?.message ?? issue.filter.annotations?.expected ?? "invalid"
      return inner._tag === "InvalidValue" && inner.annotations?.message === undefined
        ? { path, reason: own }
        : problemOf(inner, path, decoding, style)
    }
    case "InvalidType":
      return { path, reason: expectedGot(named(issue.ast), issue.input) }
    case "InvalidValue":
    case "Forbidden":
      return { path, reason: issue.annotations?.message ?? `invalid: ${describeJson(issue.input)}` }
    case "MissingKey":
      return style === "path"
        ? { path, reason: "missing field" }
        : { path: parent(path), reason: `missing field ${JSON.stringify(lastKey(path))}` }
    case "UnexpectedKey": {
      if (style === "path") return { path, reason: "unknown field" }
      const what = expectedOf(issue.ast)
      const takes = what === undefined ? "" : ` (${what} takes ${fieldsOf(issue.ast).join(", ")})`
      return { path: parent(path), reason: `unknown field ${JSON.stringify(lastKey(path))}${takes}` }
    }
    case "AnyOf": {
      const [only] = issue.issues
      return only !== undefined && issue.issues.length === 1
        ? problemOf(only, path, decoding, style)
        : { path, reason: expectedGot(named(issue.ast), issue.input) }
    }
    case "OneOf":
      return { path, reason: `ambiguous: reads as more than one ${named(issue.ast)}` }
  }
}

/** The first problem of a Schema failure, as the InvalidInput a client reads, under `prefix`. */
export const toInvalidInput = (issue: SchemaIssue.Issue, prefix: InputPath = []): InvalidInput => {
  const { path, reason } = problemOf(issue, prefix)
  return new InvalidInput({ path, reason })
}

/** The first problem of a decoding failure: where it is, and what it is in words. */
export const describeIssue = (issue: SchemaIssue.Issue, style: KeyStyle = "message"): Problem =>
  problemOf(issue, [], true, style)

/**
 * The decoder of a shape: JSON its wire schema accepts, read as the model; or the first problem, at its
 * place under `prefix`. The wire schema is compiled (Effect's schema JIT) the first time it is used.
 */
export const decodeWith = <T, W>(shape: { readonly wire: Wire<W>; readonly read: (json: W) => T }) => {
  SchemaJITCompiler.enable(shape.wire.ast)
  const check = Schema.decodeUnknownResult(shape.wire, parseOptions)
  return (json: unknown, prefix: InputPath = []): Result.Result<T, InvalidInput> => {
    const checked = check(json)
    return Result.isSuccess(checked)
      ? Result.succeed(shape.read(checked.success))
      : Result.fail(toInvalidInput(checked.failure.issue, prefix))
  }
}

/** The encoder of a shape a vocabulary cannot always write (a request's): the JSON, or why it cannot be written. */
export const encodeWith = <T, W>(shape: PartialWireShape<T, W>) => (value: T): Result.Result<W, Unexpressible> =>
  Result.mapError(shape.write(value), (reason) => new Unexpressible({ reason }))
