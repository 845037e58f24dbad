import { Result } from "effect"
import type { InputPath } from "../common/InvalidInput.ts"
import { type Decoded, invalid } from "../common/JsonInput.ts"

/**
 * Vocabulary A writes a variant without data as a key holding an empty array (`{"OnOff": []}`,
 * `{"Empty": []}`, `{"TypeError": []}`): exactly `[]` is accepted, so that a typo'd payload is not ignored.
 */
export const readEmptyArray = (json: unknown, path: InputPath): Decoded<void> =>
  Array.isArray(json) && json.length === 0 ? Result.void : invalid(path, "expected an empty array []")
