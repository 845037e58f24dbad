import { Schema, SchemaTransformation } from "effect"
import { ChannelError } from "../../domain/ChannelError.ts"
import { ChannelIdJson, ServiceIdJson } from "../common/IdentifierJson.ts"
import { ValueTypeJson } from "../common/ValueJson.ts"
import { decodeWith, encodeTotal } from "../common/WireIssue.ts"
import { keyedUnion } from "../common/WireSchema.ts"

/**
 * Per-channel errors of vocabulary B (wire.md §6): `{"NoSuchService": id}`, `{"NoSuchGetter": id}`,
 * `{"NoSuchSetter": id}`, `{"TypeError": {"expected": T, "got": T}}` with value type names (§9), and
 * `{"InternalError": "<message>"}` for a device that failed or did not answer.
 */
const knownErrors = "NoSuchService, NoSuchGetter, NoSuchSetter, TypeError, InternalError"
const transform = SchemaTransformation.transform

export const ChannelErrorJson = keyedUnion(
  {
    NoSuchService: Schema.Struct({ NoSuchService: ServiceIdJson }).pipe(Schema.decodeTo(
      Schema.toType(ChannelError.cases.NoSuchService),
      transform({ decode: (e) => ({ _tag: "NoSuchService", id: e.NoSuchService }) as const, encode: (e) => ({ NoSuchService: e.id }) })
    )),
    NoSuchGetter: Schema.Struct({ NoSuchGetter: ChannelIdJson }).pipe(Schema.decodeTo(
      Schema.toType(ChannelError.cases.NoSuchGetter),
      transform({ decode: (e) => ({ _tag: "NoSuchGetter", id: e.NoSuchGetter }) as const, encode: (e) => ({ NoSuchGetter: e.id }) })
    )),
    NoSuchSetter: Schema.Struct({ NoSuchSetter: ChannelIdJson }).pipe(Schema.decodeTo(
      Schema.toType(ChannelError.cases.NoSuchSetter),
      transform({ decode: (e) => ({ _tag: "NoSuchSetter", id: e.NoSuchSetter }) as const, encode: (e) => ({ NoSuchSetter: e.id }) })
    )),
    TypeError: Schema.Struct({
      TypeError: Schema.Struct({ expected: ValueTypeJson, got: ValueTypeJson }).annotate({ expected: "a type error" })
    }).pipe(Schema.decodeTo(
      Schema.toType(ChannelError.cases.TypeMismatch),
      transform({
        decode: ({ TypeError: e }) => ({ _tag: "TypeMismatch", expected: e.expected, got: e.got }) as const,
        encode: (e) => ({ TypeError: { expected: e.expected, got: e.got } })
      })
    )),
    InternalError: Schema.Struct({ InternalError: Schema.String }).pipe(Schema.decodeTo(
      Schema.toType(ChannelError.cases.DeviceFailure),
      transform({ decode: (e) => ({ _tag: "DeviceFailure", message: e.InternalError }) as const, encode: (e) => ({ InternalError: e.message }) })
    ))
  },
  `an error such as {"NoSuchGetter": "<id>"}`,
  (name) => `unknown error ${JSON.stringify(name)} (known: ${knownErrors})`
).annotate({ identifier: "BError", description: "A per-channel error." })

export const decodeChannelError = decodeWith(ChannelErrorJson)
export const encodeChannelError = encodeTotal(ChannelErrorJson)
