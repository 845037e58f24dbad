import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { ChannelError } from "./ChannelError.ts"
import { ChannelId, ServiceId } from "./Identifier.ts"
import { Value } from "./Value.ts"

/** What a result is keyed by: a channel, or the service a selector named that does not exist. */
export const ResultKey = Schema.Union([ChannelId, ServiceId])
export type ResultKey = typeof ResultKey.Type

const outcome = <S extends Schema.Top>(success: S) =>
  Schema.Struct({ key: ResultKey, result: Schema.Result(success, ChannelError) })

/** One channel's answer to a read: its latest value (`None`: no value yet) or why there is none. */
export const FetchOutcome = outcome(Schema.Option(Value))
export type FetchOutcome = typeof FetchOutcome.Type

/** One channel's answer to a write. */
export const SendOutcome = outcome(Schema.Void)
export type SendOutcome = typeof SendOutcome.Type

/** Results of one request, sorted by key. */
export const FetchResults = Schema.Array(FetchOutcome)
export type FetchResults = typeof FetchResults.Type
export const SendResults = Schema.Array(SendOutcome)
export type SendResults = typeof SendResults.Type

export type BinaryValue = Extract<Value, { readonly _tag: "Binary" }>

/**
 * The value of a read that answered exactly one channel, when that value is Binary: the one answer a
 * client may take as the bytes themselves (a camera image into an `<img>`). Anything else: none.
 */
export const loneBinaryValue = (results: FetchResults): Option.Option<BinaryValue> => {
  const only = results.length === 1 ? results[0] : undefined
  if (only === undefined || Result.isFailure(only.result)) return Option.none()
  return Option.filter(only.result.success, (value): value is BinaryValue => value._tag === "Binary")
}
