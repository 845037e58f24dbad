import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { SendTarget } from "../../domain/Request.ts"
import { isJsonObject } from "../common/DescribeJson.ts"
import { DOCS } from "../common/Docs.ts"
import { hasTwoFields } from "../common/SelectorsById.ts"
import { ValueInputJson } from "../common/ValueJson.ts"
import { expectedGot, explainedBy } from "../common/WireSchema.ts"
import { fieldsOf, partialWireRecord } from "../common/WireRecord.ts"
import { partialWireShape } from "../common/WireShape.ts"
import { SetSelectorsJson } from "./ChannelSelectorJson.ts"

/**
 * The body of put_channel_value (docs/reference.md §6.3), in either form: the pair `[[SetSelector], V]`, or
 * `{"set": [SetSelector], "value": V}`. Either is one write target: one value for every setter matched.
 * It is written in the object form; a request of A carries one value, so several targets cannot be written.
 */
const forms = `the pair [[SetSelector], Value] or {"set": [SetSelector], "value": Value}`

const target = fieldsOf(SendTarget)

const ObjectForm = partialWireRecord(SendTarget, {
  set: target.partial("selectors", SetSelectorsJson),
  value: target.field("value", ValueInputJson)
}, { annotations: { expected: `{"set", "value"}` } })

const PairForm = Schema.Tuple([SetSelectorsJson.wire, ValueInputJson.wire])

type BodyWire = typeof ObjectForm.wire.Type | typeof PairForm.Type

const isPair = (json: BodyWire): json is typeof PairForm.Type => Array.isArray(json)

/** `{"set": [SetSelector], "value": V}` of selectors by id and a simple value (SelectorsById.ts, SimpleValueJson.ts). */
const surelySimple = (json: unknown): json is BodyWire =>
  hasTwoFields(json, "set", (set) => SetSelectorsJson.surely?.(set) === true, "value", (value) => ValueInputJson.surely?.(value) === true)

export const PutValueBodyJson = partialWireShape({
  wire: Schema.Union([ObjectForm.wire, PairForm]).annotate({
    identifier: "APutValueBody",
    description: DOCS ? "The body of put_channel_value: one value for every output matched." : ""
  }).annotate(explainedBy((input) => {
    if (Array.isArray(input)) return input.length === 2 ? PairForm : `expected ${forms}, got an array of ${input.length} items`
    return isJsonObject(input) ? ObjectForm.wire : expectedGot(forms, input)
  })),
  read: (json: BodyWire): ReadonlyArray<SendTarget> => [
    isPair(json) ? { selectors: SetSelectorsJson.read(json[0]), value: ValueInputJson.read(json[1]) } : ObjectForm.read(json)
  ],
  write: (targets: ReadonlyArray<SendTarget>) => {
    const [only, ...others] = targets
    return only !== undefined && others.length === 0
      ? ObjectForm.write(only)
      : Result.fail(`a vocabulary A put_channel_value body holds one value, not ${targets.length}`)
  },
  surely: surelySimple
}, Schema.Array(SendTarget))
