import { Option, Result } from "effect"

/** JSON text parsed; the failure is the parser's own message, e.g. `Unexpected end of JSON input`. */
export const parseJson = (text: string): Result.Result<unknown, string> => {
  try {
    return Result.succeed(JSON.parse(text))
  } catch (error) {
    return Result.fail(error instanceof Error ? error.message : String(error))
  }
}

/** A body's text parsed as JSON, where blank text is no body at all (`None`): a read of everything. */
export const parseJsonText = (text: string): Result.Result<Option.Option<unknown>, string> =>
  text.trim() === "" ? Result.succeed(Option.none()) : Result.map(parseJson(text), Option.some)
