import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as A from "../../../src/vocabulary/a/index.ts"
import * as B from "../../../src/vocabulary/b/index.ts"
import type { Decoded } from "../../../src/vocabulary/common/InvalidInput.ts"
import { knownFieldsOnly } from "../../../src/vocabulary/common/KnownFields.ts"
import { ValueInputJson, ValueJson } from "../../../src/vocabulary/common/ValueJson.ts"
import { decode, parseOptions, toInvalidInput } from "../../../src/vocabulary/common/WireIssue.ts"
import type { Wire } from "../../../src/vocabulary/common/WireShape.ts"

/** How a shape's JSON is read: as the gateway reads it, and by the strict schema alone, unknown fields refused. */
export interface BodyReader {
  readonly read: (json: unknown) => Decoded<unknown>
  readonly readStrictly: (json: unknown) => Decoded<unknown>
  /** Whether the gateway may read `json` with unknown fields ignored (KnownFields.ts). */
  readonly knownFieldsOnly: (json: unknown) => boolean
}

const readerOf = <T, W>(shape: { readonly wire: Wire<W>; readonly read: (json: W) => T }): BodyReader => {
  const strict = Schema.decodeUnknownResult(shape.wire, parseOptions)
  return {
    read: (json) => decode(shape, json),
    readStrictly: (json) => {
      const checked = strict(json)
      return Result.isSuccess(checked) ? Result.succeed(shape.read(checked.success)) : Result.fail(toInvalidInput(checked.failure.issue))
    },
    knownFieldsOnly: knownFieldsOnly(shape.wire.ast)
  }
}

/**
 * The readers of the bodies that read and write values, and of the values themselves: what the gateway
 * decodes with Effect's compiled parser (src/cli/Launch.ts enables it) on every read and write.
 */
export const bodyReaders = {
  "B fetch_values": readerOf(B.GetterSelectorsJson),
  "B send_values": readerOf(B.SendBodyJson),
  "A get_channel_value": readerOf(A.GetSelectorsJson),
  "A put_channel_value": readerOf(A.PutValueBodyJson),
  Value: readerOf(ValueJson),
  ValueInput: readerOf(ValueInputJson)
}

export type BodyName = keyof typeof bodyReaders

/** `json` as JSON text on one line: readline ends a line at U+2028 and U+2029 too, which JSON leaves as they are. */
export const oneLine = (json: unknown): string => JSON.stringify(json).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029")
