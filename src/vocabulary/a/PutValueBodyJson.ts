import { Result, Schema } from "effect"
import { SendTarget } from "../../domain/Request.ts"
import { isJsonObject } from "../common/DescribeJson.ts"
import { ValueInputJson } from "../common/ValueJson.ts"
import { decodeWith, encodeWith } from "../common/WireIssue.ts"
import { expectedGot, explainedBy } from "../common/WireSchema.ts"
import { partialWireShape } from "../common/WireShape.ts"
import { SetSelectorsJson } from "./ChannelSelectorJson.ts"

/**
 * The body of put_channel_value (docs/reference.md §6.3), in either form: the pair `[[SetSelector], V]`, or
 * `{"set": [SetSelector], "value": V}`. Either is one write target: one value for every setter matched.
 * It is written in the object form; a request of A carries one value, so several targets cannot be written.
 */
const forms = `the pair [[SetSelector], Value] or {"set": [SetSelector], "value": Value}`

const ObjectForm = Schema.Struct({ set: SetSelectorsJson.wire, value: ValueInputJson.wire }).annotate({ expected: `{"set", "value"}` })

const PairForm = Schema.Tuple([SetSelectorsJson.wire, ValueInputJson.wire])

type BodyWire = typeof ObjectForm.Type | typeof PairForm.Type

const isPair = (json: BodyWire): json is typeof PairForm.Type => Array.isArray(json)

export const PutValueBodyJson = partialWireShape({
  wire: Schema.Union([ObjectForm, PairForm]).annotate({
    identifier: "APutValueBody",
    description: "The body of put_channel_value: one value for every output matched."
  }).annotate(explainedBy((input) => {
    if (Array.isArray(input)) return input.length === 2 ? PairForm : `expected ${forms}, got an array of ${input.length} items`
    return isJsonObject(input) ? ObjectForm : expectedGot(forms, input)
  })),
  read: (json: BodyWire): ReadonlyArray<SendTarget> => {
    const [selectors, value] = isPair(json) ? json : [json.set, json.value] as const
    return [{ selectors: SetSelectorsJson.read(selectors), value: ValueInputJson.read(value) }]
  },
  write: (targets: ReadonlyArray<SendTarget>) => {
    const [only, ...others] = targets
    return only !== undefined && others.length === 0
      ? Result.map(SetSelectorsJson.write(only.selectors), (set) => ({ set, value: ValueInputJson.write(only.value) }))
      : Result.fail(`a vocabulary A put_channel_value body holds one value, not ${targets.length}`)
  }
}, Schema.Array(SendTarget))

export const decodePutValueBody = decodeWith(PutValueBodyJson)
export const encodePutValueBody = encodeWith(PutValueBodyJson)
