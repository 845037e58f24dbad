import { Data, Result, Schema, SchemaIssue } from "effect"

/** Where in a request body a problem is: object keys and array indexes. */
export type InputPath = ReadonlyArray<PropertyKey>

/**
 * A request body that is not what the operation takes. Its `message` is what the client reads,
 * e.g. `body[1].select.kind: unknown kind "Toaster"`.
 */
export class InvalidInput extends Data.TaggedError("InvalidInput")<{
  readonly path: InputPath
  readonly reason: string
}> {
  override get message(): string {
    return `${formatPath(this.path)}: ${this.reason}`
  }
}

const identifierLike = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** `["a", 0, "b c"]` → `body.a[0]["b c"]`; under the root `""`, `a[0]["b c"]`. */
export const formatPath = (path: InputPath, root = "body"): string =>
  path.reduce<string>((out, key) => {
    if (typeof key === "number") return `${out}[${key}]`
    const name = String(key)
    if (!identifierLike.test(name)) return `${out}[${JSON.stringify(name)}]`
    return out === "" ? name : `${out}.${name}`
  }, root)

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

/** The first problem of a Schema failure: where it is, and Schema's message for it (if it has one). */
export const firstIssue = (issue: SchemaIssue.Issue): { readonly path: InputPath; readonly message: string | undefined } => {
  const first = formatter(issue).issues[0]
  return { path: (first?.path ?? []).map((p) => (typeof p === "object" ? p.key : p)), message: first?.message }
}

/** The first problem of a Schema failure, as an InvalidInput under `prefix`. */
export const fromSchemaIssue = (issue: SchemaIssue.Issue, prefix: InputPath = []): InvalidInput => {
  const { path, message } = firstIssue(issue)
  return new InvalidInput({ path: [...prefix, ...path], reason: message ?? "invalid" })
}

/** Decode `input` with `schema`, refusing unknown keys, with failures as InvalidInput at `prefix`. */
export const decodeWith = <S extends Schema.Decoder<unknown>>(schema: S) => {
  const decode = Schema.decodeUnknownResult(schema, { onExcessProperty: "error" })
  return (input: unknown, prefix: InputPath = []): Result.Result<S["Type"], InvalidInput> =>
    Result.mapError(decode(input), (error) => fromSchemaIssue(error.issue, prefix))
}
