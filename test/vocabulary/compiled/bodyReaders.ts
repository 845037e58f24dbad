import * as A from "../../../src/vocabulary/a/index.ts"
import * as B from "../../../src/vocabulary/b/index.ts"
import type { Decoded } from "../../../src/vocabulary/common/InvalidInput.ts"
import { ValueInputJson, ValueJson } from "../../../src/vocabulary/common/ValueJson.ts"
import { decode } from "../../../src/vocabulary/common/WireIssue.ts"

/**
 * The readers of the bodies that read and write values, and of the values themselves: what the gateway
 * decodes with Effect's compiled parser (src/cli/Launch.ts enables it) on every read and write.
 */
export const bodyReaders = {
  "B fetch_values": (json: unknown): Decoded<unknown> => decode(B.GetterSelectorsJson, json),
  "B send_values": (json: unknown): Decoded<unknown> => decode(B.SendBodyJson, json),
  "A get_channel_value": (json: unknown): Decoded<unknown> => decode(A.GetSelectorsJson, json),
  "A put_channel_value": (json: unknown): Decoded<unknown> => decode(A.PutValueBodyJson, json),
  Value: (json: unknown): Decoded<unknown> => decode(ValueJson, json),
  ValueInput: (json: unknown): Decoded<unknown> => decode(ValueInputJson, json)
}

export type BodyName = keyof typeof bodyReaders

/** `json` as JSON text on one line: readline ends a line at U+2028 and U+2029 too, which JSON leaves as they are. */
export const oneLine = (json: unknown): string => JSON.stringify(json).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029")
