import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { BodiesReadFirst, hasBody } from "../transport/BodyFirst.ts"
import { nestsDeeperThan, parseJsonText } from "../../vocabulary/common/JsonText.ts"
import { BadRequest, PayloadTooLarge } from "../routing/HttpError.ts"
import { IncomingRequest } from "../routing/IncomingRequest.ts"
import { maxBodyDepth } from "./RequestLimits.ts"

/**
 * The body of the request in `context` as JSON, whatever the method: the API's reads are GETs that carry a
 * body. `None` when there is no body (reads take that as "everything"). The body was read before the app
 * ran, within its route's limit (see BodyFirst), or found too long for it: a 413 naming that limit. Done
 * at once (RouteProgram).
 */
export const readFrom = (context: Context.Context<IncomingRequest>): Effect.Effect<Option.Option<unknown>, BadRequest | PayloadTooLarge> =>
  Effect.fromResult(bodyOf(context))

/** `readFrom`, as the result it always is at once (the body was read before the route ran). */
export const bodyOf = (context: Context.Context<IncomingRequest>): Result.Result<Option.Option<unknown>, BadRequest | PayloadTooLarge> => {
  const request = Context.get(context, IncomingRequest)
  if (!hasBody(request.headers)) return noBody
  const body = Context.get(context, BodiesReadFirst).of(request.source)
  return body === undefined
    ? Result.fail(new BadRequest({ message: "body: could not be read" }))
    : body._tag === "Whole"
    ? parse(body.bytes)
    : Result.fail(new PayloadTooLarge({ limit: body.limit }))
}

/** `readFrom`, in the context of the program that asks. */
export const read: Effect.Effect<Option.Option<unknown>, BadRequest | PayloadTooLarge, IncomingRequest> = Effect.contextWith(readFrom)

const noBody = Result.succeed(Option.none<unknown>())

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** Bytes to JSON; blank means no body. Exported for tests of the messages. */
export const parse = (bytes: Uint8Array): Result.Result<Option.Option<unknown>, BadRequest> => {
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    return Result.fail(new BadRequest({ message: "body: not valid UTF-8" }))
  }
  // Before any reader builds what the text holds (see nestsDeeperThan).
  if (nestsDeeperThan(text, maxBodyDepth)) return Result.fail(new BadRequest({ message: `body: nested deeper than ${maxBodyDepth} levels` }))
  return Result.mapError(
    parseJsonText(text),
    (reason) => new BadRequest({ message: `body: invalid JSON: ${describeSyntaxError(reason)}` })
  )
}

/**
 * V8's message without the echo of the input it sometimes appends (a body can be large or
 * private), e.g. `expected ',' or '}' after property value at position 6 (line 1 column 7)`.
 */
const describeSyntaxError = (reason: string): string => {
  const message = reason.replace(/, "[\s\S]*" is not valid JSON$/, "").replace(" in JSON at", " at")
  return message.charAt(0).toLowerCase() + message.slice(1)
}
