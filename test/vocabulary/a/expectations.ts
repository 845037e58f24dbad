import { Result } from "effect"
import { expect } from "vitest"
import type { InvalidInput } from "../../../src/vocabulary/common/InvalidInput.ts"
import type { Unexpressible } from "../../../src/vocabulary/a/index.ts"

/** The decoded value; fails the test, showing the decoder's message, when decoding failed. */
export const decoded = <A>(result: Result.Result<A, InvalidInput | Unexpressible>): A => {
  if (Result.isFailure(result)) {
    expect.fail(`expected success, got: ${result.failure.message}`)
  }
  return result.success
}

/** The message a client would read; fails the test when decoding succeeded. */
export const rejection = (result: Result.Result<unknown, InvalidInput>): string => {
  if (Result.isSuccess(result)) {
    expect.fail(`expected a rejection, got: ${JSON.stringify(result.success)}`)
  }
  return result.failure.message
}

/** Why A cannot say it; fails the test when encoding succeeded. */
export const unexpressible = (result: Result.Result<unknown, Unexpressible>): string => {
  if (Result.isSuccess(result)) {
    expect.fail(`expected Unexpressible, got: ${JSON.stringify(result.success)}`)
  }
  return result.failure.reason
}

/** Encoded JSON as a client receives it: through text, so that only what JSON carries is compared. */
export const onTheWire = (json: unknown): unknown => JSON.parse(JSON.stringify(json))
