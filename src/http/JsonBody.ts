import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect, Option, Result } from "effect"
import { HttpServerRequest } from "effect/http"
import type { IncomingMessage } from "node:http"
import { GatewayConfig } from "../GatewayConfig.ts"
import { nestsDeeperThan, parseJsonText } from "../vocabulary/common/JsonText.ts"
import { BadRequest, PayloadTooLarge } from "./HttpError.ts"
import { maxBodyDepth } from "./RequestLimits.ts"

/**
 * The request body as JSON, bounded by `GatewayConfig.maxBodyBytes`, whatever the method:
 * the API's reads are GETs that carry a body. `None` when there is no body (reads take that
 * as "everything").
 */
export const read: Effect.Effect<
  Option.Option<unknown>,
  BadRequest | PayloadTooLarge,
  HttpServerRequest.HttpServerRequest | GatewayConfig
> = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
  GatewayConfig.use(({ maxBodyBytes }) => {
    // Refuse a declared oversize body before reading a byte of it.
    const declared = request.headers["content-length"]
    if (declared !== undefined) {
      const length = Number(declared)
      if (length > maxBodyBytes) return Effect.fail(new PayloadTooLarge({ limit: maxBodyBytes }))
      if (length === 0) return Effect.succeed(Option.none<unknown>())
    }
    return Effect.flatMap(bodyBytes(request, maxBodyBytes), (bytes) => Effect.fromResult(parse(bytes)))
  }))

/**
 * The bytes of the body, read straight from Node's request (the platform's stream machinery costs more
 * than the rest of a small request). A chunked body has no declared length: bytes are counted as they
 * arrive and reading stops at the limit, so an endless body is never buffered; what is left of it is
 * the server's to drain or cut (the platform does so when the response is sent).
 */
const bodyBytes = (request: HttpServerRequest.HttpServerRequest, limit: number) =>
  Effect.callback<Buffer, BadRequest | PayloadTooLarge>((resume) => {
    const source = NodeHttpServerRequest.toIncomingMessage(request) as IncomingMessage
    if (request.headers["expect"]?.toLowerCase() === "100-continue") continueIfAsked(request)
    const chunks: Array<Buffer> = []
    let size = 0
    const stop = () => {
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onError)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      stop()
      resume(Effect.fail(new PayloadTooLarge({ limit })))
    }
    const onEnd = () => {
      stop()
      resume(Effect.succeed(chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks, size)))
    }
    const onError = () => {
      stop()
      resume(Effect.fail(new BadRequest({ message: "body: could not be read" })))
    }
    source.on("data", onData)
    source.on("end", onEnd)
    source.on("error", onError)
    return Effect.sync(stop)
  })

/** A client that sent `Expect: 100-continue` waits for the go-ahead before it sends the body. */
const continueIfAsked = (request: HttpServerRequest.HttpServerRequest) => {
  const response = NodeHttpServerRequest.toServerResponse(request)
  if (!response.headersSent) response.writeContinue()
}

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** Bytes to JSON; blank means no body. Exported for tests of the messages. */
export const parse = (bytes: Uint8Array): Result.Result<Option.Option<unknown>, BadRequest> => {
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
