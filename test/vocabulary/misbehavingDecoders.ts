import type { Result } from "effect"
import type { InvalidInput } from "../../src/vocabulary/common/InvalidInput.ts"

/** A wire shape's decoder, by the name a failure shows. */
export type NamedDecoder = readonly [string, (json: unknown) => Result.Result<unknown, InvalidInput>]

/**
 * The decoders that answer `input` otherwise than `behaves` wants, by name. The robustness properties
 * give every decoder each generated input: generating the inputs was most of their time when each
 * decoder drew inputs of its own.
 */
export const misbehaving = (
  decoders: ReadonlyArray<NamedDecoder>,
  input: unknown,
  behaves: (result: Result.Result<unknown, InvalidInput>) => boolean
): ReadonlyArray<string> => decoders.filter(([, decode]) => !behaves(decode(input))).map(([name]) => name)
