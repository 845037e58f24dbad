import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"
import * as SchemaIssue from "effect/SchemaIssue"
import { describeJson } from "./DescribeJson.ts"
import { type Decoded, type InputPath, InvalidInput } from "./InvalidInput.ts"
import { Unexpressible } from "./Unexpressible.ts"
import { knownFieldsOnly } from "./KnownFields.ts"
import type { SurelyRead, Wire } from "./WireShape.ts"
import { expectedGot, expectedOf, explanationOf } from "./WireSchema.ts"

/**
 * The one formatter of wire failures: the first problem of a Schema failure, where it is and what it is
 * in the client's words (`body[1].kind: unknown kind "Toaster" (known: …)`). Every decoder of both
 * vocabularies reports through it; the words come from the schemas' annotations (WireSchema.ts).
 *
 * It is Effect's own formatter (`SchemaIssue.makeFormatterStandardSchemaV1`, which walks the issue and
 * builds each problem's path) with our hooks for the words of a leaf and of a failed check. What Effect's
 * formatter has no hook for is which member of a union the client meant: before formatting, the failure
 * is narrowed to its first problem, a union's to the member its `explainedBy` names (or to its words).
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
const fieldNames = (ast: SchemaAST.AST): ReadonlyArray<string> =>
  ast._tag === "Objects" ? ast.propertySignatures.map((p) => String(p.name)) : []

// A misplaced key's reason starts with one of these; in the "message" style the key is put after it.
const missingField = "missing field"
const unknownField = "unknown field"

/** The words of a leaf: the hook Effect's formatter calls for each. */
const leafHook: SchemaIssue.LeafHook = (issue) => {
  switch (issue._tag) {
    case "InvalidType":
      return expectedGot(named(issue.ast), issue.input)
    case "InvalidValue":
    case "Forbidden":
      return issue.annotations?.message ?? `invalid: ${describeJson(issue.input)}`
    case "MissingKey":
      return missingField
    case "UnexpectedKey": {
      const what = expectedOf(issue.ast)
      return what === undefined ? unknownField : `${unknownField} (${what} takes ${fieldNames(issue.ast).join(", ")})`
    }
    case "OneOf":
      return `ambiguous: reads as more than one ${named(issue.ast)}`
  }
}

/**
 * The words of a failed check: its own (`message`, else `expected`), unless it said more for this input
 * (a message, maybe at a place within it: then that is the problem, formatted where it is).
 */
const checkHook: SchemaIssue.CheckHook = (issue) => {
  const inner = issue.issue
  if (inner._tag !== "InvalidValue") return undefined
  return inner.annotations?.message ?? issue.filter.annotations?.message ?? issue.filter.annotations?.expected ?? "invalid"
}

const format = SchemaIssue.makeFormatterStandardSchemaV1({ leafHook, checkHook })

/** A reason in words, where the input was. */
const said = (reason: string, input: unknown): SchemaIssue.Issue => new SchemaIssue.InvalidValue({ message: reason }, input, parseOptions)

/** Whether the input had the right shape and a check on what was read from it failed. */
const checkFailed = (issue: SchemaIssue.Issue): boolean =>
  issue._tag === "Composite" && issue.issues.every((inner) => inner._tag === "Filter")

/**
 * The issue as the schema that refused the input explains it, if it does: its words, or the failure of
 * the member the client meant. A failed check holds the value read, not the input sent: it is explained
 * in words or by its own message; a schema that answers "my own structure explains it" is read as it is.
 */
const explained = (
  issue: SchemaIssue.Composite | SchemaIssue.Encoding | SchemaIssue.InvalidType | SchemaIssue.AnyOf | SchemaIssue.OneOf
): SchemaIssue.Issue | undefined => {
  const explain = explanationOf(issue.ast)
  if (explain === undefined || !SchemaIssue.hasInput(issue)) return undefined
  const explanation = explain(issue.input)
  if (typeof explanation === "string") return said(explanation, issue.input)
  if (checkFailed(issue) || explanation.ast === issue.ast) return undefined
  const again = Schema.decodeUnknownResult(explanation, parseOptions)(issue.input)
  return Result.isFailure(again) ? firstProblem(again.failure.issue) : undefined
}

/** The failure narrowed to its first problem: one issue at each level, a union's explained. */
const firstProblem = (issue: SchemaIssue.Issue): SchemaIssue.Issue => {
  switch (issue._tag) {
    case "Pointer":
      return new SchemaIssue.Pointer(issue.path, firstProblem(issue.issue))
    case "Encoding":
      return explained(issue) ?? firstProblem(issue.issue)
    case "Filter":
      return new SchemaIssue.Filter(issue.filter, firstProblem(issue.issue), issue.input, parseOptions)
    case "Composite":
      return explained(issue) ?? firstProblem(issue.issues[0])
    case "InvalidType":
    case "OneOf":
      return explained(issue) ?? issue
    case "AnyOf": {
      const explanation = explained(issue)
      if (explanation !== undefined) return explanation
      const [only] = issue.issues
      return only !== undefined && issue.issues.length === 1 ? firstProblem(only) : said(expectedGot(named(issue.ast), issue.input), issue.input)
    }
    default:
      return issue
  }
}

/** The problem of a narrowed failure, with a misplaced key named in the message or in the path. */
const problemOf = (issue: SchemaIssue.Issue, style: KeyStyle): Problem => {
  const [first] = format(firstProblem(issue)).issues
  const path: InputPath = (first?.path ?? []).map((segment) => (typeof segment === "object" ? segment.key : segment))
  const reason = first?.message ?? "invalid"
  const misplaced = [missingField, unknownField].find((prefix) => reason.startsWith(prefix))
  const key = path[path.length - 1]
  if (misplaced === undefined || key === undefined) return { path, reason }
  return style === "path"
    ? { path, reason: misplaced }
    : { path: path.slice(0, -1), reason: `${misplaced} ${JSON.stringify(String(key))}${reason.slice(misplaced.length)}` }
}

/** The first problem of a Schema failure, as the InvalidInput a client reads, under `prefix`. */
export const toInvalidInput = (issue: SchemaIssue.Issue, prefix: InputPath = []): InvalidInput => {
  const { path, reason } = problemOf(issue, "message")
  return new InvalidInput({ path: [...prefix, ...path], reason })
}

/** The first problem of a decoding failure: where it is, and what it is in words. */
export const describeIssue = (issue: SchemaIssue.Issue, style: KeyStyle = "message"): Problem => problemOf(issue, style)

/**
 * The decoder of a shape: JSON its wire schema accepts, read as the model; or the first problem, at its
 * place under `prefix`. Where the program enabled Effect's schema JIT (the gateway does, in
 * src/cli/Launch.ts), the wire schema is compiled the first time it is used; a client bundle, which
 * does not, interprets it and carries no compiler.
 */
export const decodeWith = <T, W>(shape: { readonly wire: Wire<W>; readonly read: (json: W) => T; readonly surely?: SurelyRead<W> }) => {
  const { surely } = shape
  const check = Schema.decodeUnknownResult(shape.wire, parseOptions)
  // JSON without an unknown field reads alike with them ignored, which costs a fifth (KnownFields.ts).
  const knownOnly = knownFieldsOnly(shape.wire.ast)
  const checkKnown = Schema.decodeUnknownResult(shape.wire)
  return (json: unknown, prefix: InputPath = []): Result.Result<T, InvalidInput> => {
    if (surely?.(json) === true) return Result.succeed(shape.read(json))
    if (knownOnly(json)) {
      const known = checkKnown(json)
      if (Result.isSuccess(known)) return Result.succeed(shape.read(known.success))
    }
    const checked = check(json)
    return Result.isSuccess(checked)
      ? Result.succeed(shape.read(checked.success))
      : Result.fail(toInvalidInput(checked.failure.issue, prefix))
  }
}

const decoders = new WeakMap<object, (json: unknown, prefix: InputPath) => Decoded<unknown>>()

/**
 * Reads `json` with `shape`: the model, or the first problem of the input at its place under `prefix`
 * (`body` by default). Each shape's decoder is made the first time it is used, and kept.
 */
export const decode = <T, W>(shape: { readonly wire: Wire<W>; readonly read: (json: W) => T; readonly surely?: SurelyRead<W> }, json: unknown, prefix: InputPath = []): Decoded<T> => {
  let decoder = decoders.get(shape)
  if (decoder === undefined) {
    decoder = decodeWith(shape)
    decoders.set(shape, decoder)
  }
  // The decoder kept for `shape` reads a T.
  return decoder(json, prefix) as Decoded<T>
}

/**
 * Writes `value` with a shape a vocabulary cannot always write (a request's): the JSON, or why it cannot
 * be written. A shape that always can is written with its `write`, or here, where either kind may come
 * (a request a client writes): JSON is never a Result, so a total shape's answer is told from a partial one's.
 */
export const encode = <T, W>(
  shape: { readonly write: (value: T) => W | Result.Result<W, string> },
  value: T
): Result.Result<W, Unexpressible> => {
  const written = shape.write(value)
  return Result.isResult(written) ? Result.mapError(written, (reason) => new Unexpressible({ reason })) : Result.succeed(written)
}
