import { Result } from "effect"
import type { ChannelError } from "../../domain/ChannelError.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import {
  type Decoded,
  invalid,
  readChannelId,
  readObjectWithKeys,
  readServiceId,
  readSingleKey,
  readString,
  requiredField
} from "../common/JsonInput.ts"
import { decodeValueType } from "../common/ValueJson.ts"

/**
 * Per-channel errors of vocabulary B (wire.md §6): `{"NoSuchService": id}`, `{"NoSuchGetter": id}`,
 * `{"NoSuchSetter": id}`, `{"TypeError": {"expected": T, "got": T}}` with value type names (§9), and
 * `{"InternalError": "<message>"}` for a device that failed or did not answer.
 */
const knownErrors = "NoSuchService, NoSuchGetter, NoSuchSetter, TypeError, InternalError"

const decodeTypeError = (json: unknown, path: InputPath): Decoded<ChannelError> =>
  Result.gen(function*() {
    const object = yield* readObjectWithKeys(json, path, "a type error", ["expected", "got"])
    const expected = yield* decodeValueType(yield* requiredField(object, "expected", path), [...path, "expected"])
    const got = yield* decodeValueType(yield* requiredField(object, "got", path), [...path, "got"])
    return { _tag: "TypeMismatch", expected, got } as const
  })

export const decodeChannelError = (json: unknown, path: InputPath = []): Decoded<ChannelError> =>
  Result.flatMap(
    readSingleKey(json, path, `an error such as {"NoSuchGetter": "<id>"}`),
    ([name, payload]): Decoded<ChannelError> => {
      const at = [...path, name]
      switch (name) {
        case "NoSuchService":
          return Result.map(readServiceId(payload, at), (id) => ({ _tag: "NoSuchService", id }))
        case "NoSuchGetter":
        case "NoSuchSetter":
          return Result.map(readChannelId(payload, at), (id) => ({ _tag: name, id }))
        case "TypeError":
          return decodeTypeError(payload, at)
        case "InternalError":
          return Result.map(readString(payload, at), (message) => ({ _tag: "DeviceFailure", message }))
        default:
          return invalid(path, `unknown error ${JSON.stringify(name)} (known: ${knownErrors})`)
      }
    }
  )

export const encodeChannelError = (error: ChannelError): unknown => {
  switch (error._tag) {
    case "NoSuchService":
    case "NoSuchGetter":
    case "NoSuchSetter":
      return { [error._tag]: error.id }
    case "TypeMismatch":
      return { TypeError: { expected: error.expected, got: error.got } }
    case "DeviceFailure":
      return { InternalError: error.message }
  }
}
