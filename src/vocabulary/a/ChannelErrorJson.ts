import { Result } from "effect"
import type { ChannelError } from "../../domain/ChannelError.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import { type Decoded, invalid, readChannelId, readNodeId, readSingleKey, readString } from "../common/JsonInput.ts"
import { readEmptyArray } from "./EmptyMarker.ts"

/**
 * Per-channel errors in vocabulary A (wire.md §6): `{"NoSuchNode": id}`, `{"NoSuchGet": id}`,
 * `{"NoSuchSet": id}`, `{"TypeError": []}`, `{"InternalError": "<message>"}`.
 */

/**
 * What A can say of a channel error: the same as the domain, except that A's TypeError does not carry
 * the expected and got types. Every domain ChannelError is one of these (A only forgets), so encoders
 * take domain errors as they are; decoders give this, rather than inventing the types A never sent.
 */
export type ChannelErrorInA =
  | Exclude<ChannelError, { readonly _tag: "TypeMismatch" }>
  | { readonly _tag: "TypeMismatch" }

/** What is left of a domain error once written in A: `decode(encode(e)) = channelErrorInA(e)`. */
export const channelErrorInA = (error: ChannelErrorInA): ChannelErrorInA =>
  error._tag === "TypeMismatch" ? { _tag: "TypeMismatch" } : error

const what = `an error such as {"NoSuchGet": "<id>"}`

export const decodeChannelError = (json: unknown, path: InputPath = []): Decoded<ChannelErrorInA> =>
  Result.flatMap(readSingleKey(json, path, what), ([name, payload]): Decoded<ChannelErrorInA> => {
    const at: InputPath = [...path, name]
    switch (name) {
      case "NoSuchNode":
        return Result.map(readNodeId(payload, at), (id) => ({ _tag: "NoSuchService", id }))
      case "NoSuchGet":
        return Result.map(readChannelId(payload, at), (id) => ({ _tag: "NoSuchGetter", id }))
      case "NoSuchSet":
        return Result.map(readChannelId(payload, at), (id) => ({ _tag: "NoSuchSetter", id }))
      case "TypeError":
        return Result.map(readEmptyArray(payload, at), () => ({ _tag: "TypeMismatch" }))
      case "InternalError":
        return Result.map(readString(payload, at, "a message (a string)"), (message) => ({
          _tag: "DeviceFailure",
          message
        }))
      default:
        return invalid(
          path,
          `unknown error ${JSON.stringify(name)} (known: NoSuchNode, NoSuchGet, NoSuchSet, TypeError, InternalError)`
        )
    }
  })

export const encodeChannelError = (error: ChannelErrorInA): unknown => {
  switch (error._tag) {
    case "NoSuchService":
      return { NoSuchNode: error.id }
    case "NoSuchGetter":
      return { NoSuchGet: error.id }
    case "NoSuchSetter":
      return { NoSuchSet: error.id }
    case "TypeMismatch":
      return { TypeError: [] }
    case "DeviceFailure":
      return { InternalError: error.message }
  }
}
