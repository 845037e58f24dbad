import { ByteSize, Effect, Option, Result } from "effect"
import { HttpIncomingMessage, HttpServerRequest } from "effect/http"
import { GatewayConfig } from "../GatewayConfig.ts"
import { nestsDeeperThan, parseJsonText } from "../vocabulary/common/JsonText.ts"
import { BadRequest, PayloadTooLarge } from "./HttpError.ts"
import { maxBodyDepth } from "./RequestLimits.ts"

/**
 * The request body as JSON, bounded by `GatewayConfig.maxBodyBytes`, whatever the method:
 * the API's reads are GETs that carry a body. `None` when there is no body (reads take that
 * as "everything").
 */
export const read = Effect.fn("JsonBody.read")(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const { maxBodyBytes } = yield* GatewayConfig
  const tooLarge = new PayloadTooLarge({ limit: maxBodyBytes })

  // Refuse a declared oversize body before reading a byte of it.
  const declared = request.headers["content-length"]
  if (declared !== undefined) {
    const length = Number(declared)
    if (length > maxBodyBytes) return yield* tooLarge
    if (length === 0) return Option.none<unknown>()
  }

  // A chunked body has no declared length: the platform counts bytes as they arrive and stops
  // at the limit, so an endless body is never buffered.
  const bytes = yield* request.arrayBuffer.pipe(
    Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(maxBodyBytes)),
    Effect.mapError((error) =>
      error.reason._tag === "RequestParseError" && error.reason.reason === "BodyTooLarge"
        ? tooLarge
        : new BadRequest({ message: "body: could not be read" })
    )
  )
  return yield* Effect.fromResult(parse(bytes))
})

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** Bytes to JSON; blank means no body. Exported for tests of the messages. */
export const parse = (bytes: ArrayBuffer): Result.Result<Option.Option<unknown>, BadRequest> => {
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    return Result.fail(new BadRequest({ message: "body: not valid UTF-8" }))
  }
  return Result.flatMap(
    Result.mapError(
      parseJsonText(text),
      (reason) => new BadRequest({ message: `body: invalid JSON: ${describeSyntaxError(reason)}` })
    ),
    (json) =>
      Option.exists(json, (j) => nestsDeeperThan(j, maxBodyDepth))
        ? Result.fail(new BadRequest({ message: `body: nested deeper than ${maxBodyDepth} levels` }))
        : Result.succeed(json)
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
