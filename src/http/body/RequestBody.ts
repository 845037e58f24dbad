import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type { Decoded } from "../../vocabulary/common/InvalidInput.ts"
import { BadRequest, type PayloadTooLarge } from "../routing/HttpError.ts"
import type { IncomingRequest } from "../routing/IncomingRequest.ts"
import * as JsonBody from "./JsonBody.ts"

/** A codec's decoder for a whole body. */
export type BodyDecoder<A> = (json: unknown) => Decoded<A>

/**
 * Reads and decodes the body of the request in a context, done at once (RouteProgram). `whenAbsent` is what
 * a request without a body means: reads take it as "everything"; writes and tag operations have none, and
 * a missing body is a 400.
 */
export const decodeBody = <A>(decode: BodyDecoder<A>, whenAbsent: Option.Option<A> = Option.none()) => {
  const absent = Option.isSome(whenAbsent) ? Exit.succeed(whenAbsent.value) : undefined
  // Plain code: every request with a body reads it here.
  return (context: Context.Context<IncomingRequest>): Exit.Exit<A, BadRequest | PayloadTooLarge> => {
    const body = JsonBody.bodyOf(context)
    if (Result.isFailure(body)) return Exit.fail(body.failure)
    if (Option.isNone(body.success)) return absent ?? Exit.fail(new BadRequest({ message: "body: required, a JSON document" }))
    const decoded = decode(body.success.value)
    return Result.isSuccess(decoded) ? Exit.succeed(decoded.success) : Exit.fail(new BadRequest({ message: decoded.failure.message }))
  }
}

/** Fails with the first limit the request goes past, if any. */
export const withinLimits = (...problems: ReadonlyArray<BadRequest | undefined>) => {
  const problem = problems.find((p) => p !== undefined)
  return problem === undefined ? Effect.void : Effect.fail(problem)
}
