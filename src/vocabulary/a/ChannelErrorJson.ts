import * as Schema from "effect/Schema"
import { ChannelError } from "../../domain/ChannelError.ts"
import { DOCS } from "../common/Docs.ts"
import { ChannelIdJson, NodeIdJson } from "../common/IdentifierJson.ts"
import { keyedForm, keyedUnion } from "../common/WireSchema.ts"
import { annotated, plain, wireShape } from "../common/WireShape.ts"
import { EmptyArrayJson } from "./EmptyMarker.ts"

/**
 * Per-channel errors in vocabulary A (docs/reference.md §6.4): `{"NoSuchNode": id}`, `{"NoSuchGet": id}`,
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

export const ChannelErrorJson = wireShape(annotated(
  keyedUnion<ChannelErrorInA>(
    {
      NoSuchService: keyedForm("NoSuchNode", plain(NodeIdJson), (id) => ({ _tag: "NoSuchService", id }) as const, (e) => e.id),
      NoSuchGetter: keyedForm("NoSuchGet", plain(ChannelIdJson), (id) => ({ _tag: "NoSuchGetter", id }) as const, (e) => e.id),
      NoSuchSetter: keyedForm("NoSuchSet", plain(ChannelIdJson), (id) => ({ _tag: "NoSuchSetter", id }) as const, (e) => e.id),
      TypeMismatch: keyedForm("TypeError", plain(EmptyArrayJson), () => ({ _tag: "TypeMismatch" }) as const, () => [] as const),
      DeviceFailure: keyedForm(
        "InternalError",
        plain(Schema.String.annotate({ expected: "a message (a string)" })),
        (message) => ({ _tag: "DeviceFailure", message }) as const,
        (e) => e.message
      )
    },
    `an error such as {"NoSuchGet": "<id>"}`,
    (name) => `unknown error ${JSON.stringify(name)} (known: ${known})`
  ),
  { identifier: "AError", description: DOCS ? "A per-channel error." : "" }
), ChannelErrorInA)
