import * as Data from "effect/Data"
import type * as Result from "effect/Result"

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

/** What a decoder answers: the value, or the first problem of the input. */
export type Decoded<A> = Result.Result<A, InvalidInput>
