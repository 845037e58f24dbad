import { Schema } from "effect"
import { ChannelError } from "../../domain/ChannelError.ts"
import { ChannelIdJson, ServiceIdJson } from "../common/IdentifierJson.ts"
import { ValueTypeJson } from "../common/ValueJson.ts"
import { decodeWith, encodeTotal } from "../common/WireIssue.ts"
import { keyedForm, keyedUnion } from "../common/WireSchema.ts"

/**
 * Per-channel errors of vocabulary B (wire.md §6): `{"NoSuchService": id}`, `{"NoSuchGetter": id}`,
 * `{"NoSuchSetter": id}`, `{"TypeError": {"expected": T, "got": T}}` with value type names (§9), and
 * `{"InternalError": "<message>"}` for a device that failed or did not answer.
 */
const knownErrors = "NoSuchService, NoSuchGetter, NoSuchSetter, TypeError, InternalError"
const { cases } = ChannelError

export const ChannelErrorJson = keyedUnion(
  {
    NoSuchService: keyedForm("NoSuchService", ServiceIdJson, cases.NoSuchService, (id) => ({ _tag: "NoSuchService", id }) as const, (e) => e.id),
    NoSuchGetter: keyedForm("NoSuchGetter", ChannelIdJson, cases.NoSuchGetter, (id) => ({ _tag: "NoSuchGetter", id }) as const, (e) => e.id),
    NoSuchSetter: keyedForm("NoSuchSetter", ChannelIdJson, cases.NoSuchSetter, (id) => ({ _tag: "NoSuchSetter", id }) as const, (e) => e.id),
    TypeError: keyedForm(
      "TypeError",
      Schema.Struct({ expected: ValueTypeJson, got: ValueTypeJson }).annotate({ expected: "a type error" }),
      cases.TypeMismatch,
      (e) => ({ _tag: "TypeMismatch", expected: e.expected, got: e.got }) as const,
      (e) => ({ expected: e.expected, got: e.got })
    ),
    InternalError: keyedForm("InternalError", Schema.String, cases.DeviceFailure, (message) => ({ _tag: "DeviceFailure", message }) as const, (e) => e.message)
  },
  `an error such as {"NoSuchGetter": "<id>"}`,
  (name) => `unknown error ${JSON.stringify(name)} (known: ${knownErrors})`
).annotate({ identifier: "BError", description: "A per-channel error." })

export const decodeChannelError = decodeWith(ChannelErrorJson)
export const encodeChannelError = encodeTotal(ChannelErrorJson)
