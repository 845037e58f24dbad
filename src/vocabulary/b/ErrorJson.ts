import * as Schema from "effect/Schema"
import { identity } from "effect/Function"
import { ChannelError } from "../../domain/ChannelError.ts"
import { DOCS } from "../common/Docs.ts"
import { ChannelIdJson, ServiceIdJson } from "../common/IdentifierJson.ts"
import { ValueTypeJson } from "../common/ValueJson.ts"
import { keyedForm, keyedUnion } from "../common/WireSchema.ts"
import { fieldsOf, wireRecord } from "../common/WireRecord.ts"
import { annotated, plain, wireShape } from "../common/WireShape.ts"

/**
 * Per-channel errors of vocabulary B (docs/reference.md §6.4): `{"NoSuchService": id}`, `{"NoSuchGetter": id}`,
 * `{"NoSuchSetter": id}`, `{"TypeError": {"expected": T, "got": T}}` with value type names, and
 * `{"InternalError": "<message>"}` for a device that failed or did not answer.
 */
const typeMismatch = fieldsOf(ChannelError.cases.TypeMismatch)

const TypeErrorJson = wireRecord(ChannelError.cases.TypeMismatch, {
  expected: typeMismatch.field("expected", ValueTypeJson),
  got: typeMismatch.field("got", ValueTypeJson)
}, { constants: { _tag: "TypeMismatch" }, annotations: { expected: "a type error" } })

const knownErrors = "NoSuchService, NoSuchGetter, NoSuchSetter, TypeError, InternalError"
export const ChannelErrorJson = wireShape(annotated(
  keyedUnion<ChannelError>(
    {
      NoSuchService: keyedForm("NoSuchService", plain(ServiceIdJson), (id) => ({ _tag: "NoSuchService", id }) as const, (e) => e.id),
      NoSuchGetter: keyedForm("NoSuchGetter", plain(ChannelIdJson), (id) => ({ _tag: "NoSuchGetter", id }) as const, (e) => e.id),
      NoSuchSetter: keyedForm("NoSuchSetter", plain(ChannelIdJson), (id) => ({ _tag: "NoSuchSetter", id }) as const, (e) => e.id),
      TypeMismatch: keyedForm("TypeError", TypeErrorJson, identity, identity),
      DeviceFailure: keyedForm("InternalError", plain(Schema.String), (message) => ({ _tag: "DeviceFailure", message }) as const, (e) => e.message)
    },
    `an error such as {"NoSuchGetter": "<id>"}`,
    (name) => `unknown error ${JSON.stringify(name)} (known: ${knownErrors})`
  ),
  { identifier: "BError", description: DOCS ? "A per-channel error." : "" }
), ChannelError)
