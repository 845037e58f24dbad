import { Result } from "effect"
import type { ChannelSelector } from "../../domain/Selector.ts"
import { andChannel } from "../../domain/SelectorAlgebra.ts"
import type { ValueFilter, WatchRegistration, WatchTarget } from "../../domain/Watch.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import {
  type Decoded,
  field,
  readArrayOf,
  readBoolean,
  readObjectWithKeys,
  requiredField
} from "../common/JsonInput.ts"
import { decodeGetSelector, encodeGetSelector } from "./ChannelSelectorJson.ts"
import { Unexpressible } from "../common/Unexpressible.ts"

/**
 * A watch frame in vocabulary A (wire.md §7): `[WatchOptions]`, WatchOptions being
 * `{"source": GetSelector, "narrow": [GetSelector]?, "should_watch_values": bool?, "should_watch_topology": bool?}`.
 * Each WatchOptions is one target of the registration: the selector `source ∧ narrow[0] ∧ …`, every value
 * (`Always`) or none (`Never`), topology events or not. The booleans default to false.
 */
const watchOptionsFields = ["source", "narrow", "should_watch_values", "should_watch_topology"]

const readFlag = (json: unknown, path: InputPath): Decoded<boolean> =>
  json === undefined ? Result.succeed(false) : readBoolean(json, path)

const decodeWatchOptions = (json: unknown, path: InputPath): Decoded<WatchTarget> =>
  Result.gen(function*() {
    const object = yield* readObjectWithKeys(json, path, "a WatchOptions", watchOptionsFields)
    const sourceJson = yield* requiredField(object, "source", path)
    const source = yield* decodeGetSelector(sourceJson, [...path, "source"])
    const narrowJson = field(object, "narrow")
    const narrow: ReadonlyArray<ChannelSelector> = narrowJson === undefined
      ? []
      : yield* readArrayOf(narrowJson, [...path, "narrow"], "an array of GetSelector", decodeGetSelector)
    const watchValues = yield* readFlag(field(object, "should_watch_values"), [...path, "should_watch_values"])
    const topology = yield* readFlag(field(object, "should_watch_topology"), [...path, "should_watch_topology"])
    const values: ValueFilter = watchValues ? { _tag: "Always" } : { _tag: "Never" }
    return { selector: narrow.reduce(andChannel, source), values, topology }
  })

export const decodeWatchFrame = (json: unknown, path: InputPath = []): Decoded<WatchRegistration> =>
  readArrayOf(json, path, "an array of WatchOptions", decodeWatchOptions)

/**
 * Each target is written with its selector as `source` and no `narrow` (the AND is already taken), so
 * `decodeWatchFrame(encode(r)) = r`. A watch on a range has no A form: A watches all values or none.
 */
const encodeWatchTarget = (target: WatchTarget): Result.Result<unknown, Unexpressible> => {
  if (target.values._tag === "InRange") {
    return Result.fail(new Unexpressible({ reason: "vocabulary A cannot watch a range of values: it watches all values or none" }))
  }
  const watchValues = target.values._tag === "Always"
  return Result.map(encodeGetSelector(target.selector), (source) => ({
    source,
    should_watch_values: watchValues,
    should_watch_topology: target.topology
  }))
}

export const encodeWatchFrame = (registration: WatchRegistration): Result.Result<unknown, Unexpressible> =>
  Result.all(registration.map(encodeWatchTarget))
