import { Schema, SchemaTransformation } from "effect"
import { ChannelError } from "../../domain/ChannelError.ts"
import { ChannelIdJson, NodeIdJson } from "../common/IdentifierJson.ts"
import { decodeWith, encodeTotal } from "../common/WireIssue.ts"
import { keyedUnion } from "../common/WireSchema.ts"
import { EmptyArrayJson } from "./EmptyMarker.ts"

/**
 * Per-channel errors in vocabulary A (wire.md §6): `{"NoSuchNode": id}`, `{"NoSuchGet": id}`,
 * `{"NoSuchSet": id}`, `{"TypeError": []}`, `{"InternalError": "<message>"}`.
 */

/**
 * What A can say of a channel error: the same as the domain, except that A's TypeError does not carry
 * the expected and got types. Every domain ChannelError is one of these (A only forgets), so encoders
 * take domain errors as they are; decoders give this, rather than inventing the types A never sent.
 */
export const ChannelErrorInA = Schema.Union([
  ChannelError.cases.NoSuchService,
  ChannelError.cases.NoSuchGetter,
  ChannelError.cases.NoSuchSetter,
  Schema.TaggedStruct("TypeMismatch", {}),
  ChannelError.cases.DeviceFailure
])
export type ChannelErrorInA = typeof ChannelErrorInA.Type

/** What is left of a domain error once written in A: `decode(encode(e)) = channelErrorInA(e)`. */
export const channelErrorInA = (error: ChannelErrorInA): ChannelErrorInA =>
  error._tag === "TypeMismatch" ? { _tag: "TypeMismatch" } : error

const known = "NoSuchNode, NoSuchGet, NoSuchSet, TypeError, InternalError"

export const ChannelErrorJson = keyedUnion(
  {
    NoSuchNode: Schema.Struct({ NoSuchNode: NodeIdJson }).pipe(Schema.decodeTo(
      Schema.toType(ChannelError.cases.NoSuchService),
      SchemaTransformation.transform({ decode: (e) => ({ _tag: "NoSuchService", id: e.NoSuchNode }) as const, encode: (e) => ({ NoSuchNode: e.id }) })
    )),
    NoSuchGet: Schema.Struct({ NoSuchGet: ChannelIdJson }).pipe(Schema.decodeTo(
      Schema.toType(ChannelError.cases.NoSuchGetter),
      SchemaTransformation.transform({ decode: (e) => ({ _tag: "NoSuchGetter", id: e.NoSuchGet }) as const, encode: (e) => ({ NoSuchGet: e.id }) })
    )),
    NoSuchSet: Schema.Struct({ NoSuchSet: ChannelIdJson }).pipe(Schema.decodeTo(
      Schema.toType(ChannelError.cases.NoSuchSetter),
      SchemaTransformation.transform({ decode: (e) => ({ _tag: "NoSuchSetter", id: e.NoSuchSet }) as const, encode: (e) => ({ NoSuchSet: e.id }) })
    )),
    TypeError: Schema.Struct({ TypeError: EmptyArrayJson }).pipe(Schema.decodeTo(
      Schema.TaggedStruct("TypeMismatch", {}),
      SchemaTransformation.transform({ decode: () => ({ _tag: "TypeMismatch" }) as const, encode: () => ({ TypeError: [] as const }) })
    )),
    InternalError: Schema.Struct({ InternalError: Schema.String.annotate({ expected: "a message (a string)" }) }).pipe(Schema.decodeTo(
      Schema.toType(ChannelError.cases.DeviceFailure),
      SchemaTransformation.transform({
        decode: (e) => ({ _tag: "DeviceFailure", message: e.InternalError }) as const,
        encode: (e) => ({ InternalError: e.message })
      })
    ))
  },
  `an error such as {"NoSuchGet": "<id>"}`,
  (name) => `unknown error ${JSON.stringify(name)} (known: ${known})`
).annotate({ identifier: "AError", description: "A per-channel error." })

export const decodeChannelError = decodeWith(ChannelErrorJson)
export const encodeChannelError = encodeTotal(ChannelErrorJson)
