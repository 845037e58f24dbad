import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { readEscapedJson } from "./EscapedJson.ts"

/**
 * JSON text parsed; the failure is the parser's own message, e.g. `Unexpected end of JSON input`. Text
 * with a backslash, once `JSON.parse` has accepted it, is read again by `readEscapedJson`: V8 can misread
 * an escaped object key after other text was parsed (see EscapedJson.ts).
 */
export const parseJson = (text: string): Result.Result<unknown, string> => {
  try {
    const json: unknown = JSON.parse(text)
    return Result.succeed(text.includes("\\") ? readEscapedJson(text) : json)
  } catch (error) {
    return Result.fail(error instanceof Error ? error.message : String(error))
  }
}

/** A body's text parsed as JSON, where blank text is no body at all (`None`): a read of everything. */
export const parseJsonText = (text: string): Result.Result<Option.Option<unknown>, string> =>
  text.trim() === "" ? Result.succeed(Option.none()) : Result.map(parseJson(text), Option.some)

/**
 * Whether parsed JSON nests deeper than `limit` arrays and objects. Walked with an explicit stack, so
 * that it answers for any depth; it stops at the first level past the limit.
 */
export const nestsDeeperThan = (json: unknown, limit: number): boolean => {
  const pending: Array<readonly [unknown, number]> = [[json, 0]]
  while (pending.length > 0) {
    const next = pending.pop()
    if (next === undefined) break
    const [item, depth] = next
    if (item === null || typeof item !== "object") continue
    if (depth >= limit) return true
    for (const child of Array.isArray(item) ? item : Object.values(item)) pending.push([child, depth + 1])
  }
  return false
}
