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
 * Whether JSON text nests deeper than `limit` arrays and objects, told from its brackets outside strings
 * before anything is read: a reader builds the whole structure before a walk of it could refuse it, and
 * the reader of escaped text (EscapedJson.ts) takes 0.8 s to rebuild a 1 MiB body 500,000 levels deep.
 * It stops at the first bracket past the limit. Text that is not JSON is left to the reader to refuse.
 */
export const nestsDeeperThan = (text: string, limit: number): boolean => {
  let depth = 0
  let inString = false
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at)
    if (inString) {
      if (code === BACKSLASH) at++ // the escaped character, a quote maybe, is part of the string
      else if (code === QUOTE) inString = false
    } else if (code === QUOTE) inString = true
    else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > limit) return true
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) depth--
  }
  return false
}

/** Characters of JSON's structure, by their code: what a scan of JSON text looks for. */
export const QUOTE = 0x22
export const BACKSLASH = 0x5c
export const OPEN_ARRAY = 0x5b
export const CLOSE_ARRAY = 0x5d
export const OPEN_OBJECT = 0x7b
export const CLOSE_OBJECT = 0x7d
