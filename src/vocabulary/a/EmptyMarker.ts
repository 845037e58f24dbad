import * as Schema from "effect/Schema"
import { explainedBy } from "../common/WireSchema.ts"

/**
 * Vocabulary A writes a variant without data as a key holding an empty array (`{"OnOff": []}`,
 * `{"Empty": []}`, `{"TypeError": []}`): exactly `[]` is accepted, so that a typo'd payload is not ignored.
 */
export const EmptyArrayJson = Schema.Tuple([]).annotate(explainedBy(() => "expected an empty array []"))
