import { Result } from "effect"
import { expect } from "vitest"

/** The decoded value; fails the test with the decoder's message when decoding failed. */
export const decoded = <A>(result: Result.Result<A, { readonly message: string }>): A => {
  if (Result.isFailure(result)) expect.fail(`expected success, got: ${result.failure.message}`)
  return result.success
}

/** The message a client would read; fails the test when decoding succeeded. */
export const rejection = (result: Result.Result<unknown, { readonly message: string }>): string => {
  if (Result.isSuccess(result)) expect.fail(`expected a rejection, got: ${JSON.stringify(result.success)}`)
  return result.failure.message
}

/** Encoded JSON as a client receives it: through text, so only what JSON carries is compared. */
export const onTheWire = (json: unknown): unknown => JSON.parse(JSON.stringify(json))

/** JSON nested `depth` levels deep, built without recursion. */
export const deeplyNested = (depth: number): unknown => JSON.parse("[".repeat(depth) + "]".repeat(depth))
