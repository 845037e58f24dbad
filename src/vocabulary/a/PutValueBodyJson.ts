import { Effect, Schema, SchemaIssue, SchemaTransformation } from "effect"
import { SendTarget } from "../../domain/Request.ts"
import { isJsonObject } from "../common/DescribeJson.ts"
import { ValueInputJson } from "../common/ValueJson.ts"
import { decodeWith, encodeWith } from "../common/WireIssue.ts"
import { expectedGot, explainedBy } from "../common/WireSchema.ts"
import { SetSelectorsJson } from "./ChannelSelectorJson.ts"

/**
 * The body of put_channel_value (wire.md §6), in either form: the pair `[[SetSelector], V]`, or
 * `{"set": [SetSelector], "value": V}`. Either is one write target: one value for every setter matched.
 * It is written in the object form; a request of A carries one value, so several targets cannot be written.
 */
const forms = `the pair [[SetSelector], Value] or {"set": [SetSelector], "value": Value}`

const target = Schema.toType(SendTarget)

const ObjectForm = Schema.Struct({ set: SetSelectorsJson, value: ValueInputJson }).annotate({ expected: `{"set", "value"}` }).pipe(
  Schema.decodeTo(
    target,
    SchemaTransformation.transform({
      decode: (json): SendTarget => ({ selectors: json.set, value: json.value }),
      encode: (t) => ({ set: t.selectors, value: t.value })
    })
  )
)

const PairForm = Schema.Tuple([SetSelectorsJson, ValueInputJson]).pipe(
  Schema.decodeTo(
    target,
    SchemaTransformation.transform({
      decode: ([selectors, value]): SendTarget => ({ selectors, value }),
      encode: (t) => [t.selectors, t.value] as const
    })
  )
)

export const PutValueBodyJson = Schema.Union([ObjectForm, PairForm]).annotate({
  identifier: "APutValueBody",
  description: "The body of put_channel_value: one value for every output matched."
}).annotate(explainedBy((input) => {
  if (Array.isArray(input)) return input.length === 2 ? PairForm : `expected ${forms}, got an array of ${input.length} items`
  return isJsonObject(input) ? ObjectForm : expectedGot(forms, input)
})).pipe(Schema.decodeTo(
  Schema.toType(Schema.Array(SendTarget)),
  SchemaTransformation.transformEffect({
    decode: (one) => Effect.succeed<ReadonlyArray<SendTarget>>([one]),
    encode: (targets) => {
      const [only, ...others] = targets
      return only !== undefined && others.length === 0
        ? Effect.succeed(only)
        : Effect.fail(new SchemaIssue.InvalidValue(
          { message: `a vocabulary A put_channel_value body holds one value, not ${targets.length}` },
          targets
        ))
    }
  })
))

export const decodePutValueBody = decodeWith(PutValueBodyJson)
export const encodePutValueBody = encodeWith(PutValueBodyJson)
