import { Schema } from "effect"
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
