import * as Schema from "effect/Schema"
import { ChannelId, ServiceId } from "./Identifier.ts"
import { ValueType } from "./ValueType.ts"

/**
 * Why one channel of a read or write did not succeed. These are data inside results, not failures of
 * the request: the other channels of the same request still succeed.
 */
export const ChannelError = Schema.TaggedUnion({
  NoSuchService: { id: ServiceId },
  NoSuchGetter: { id: ChannelId },
  NoSuchSetter: { id: ChannelId },
  TypeMismatch: { expected: ValueType, got: ValueType },
  /** The device failed, refused, or did not answer in time. */
  DeviceFailure: { message: Schema.String }
})
export type ChannelError = typeof ChannelError.Type
