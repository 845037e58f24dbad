import * as fc from "fast-check"
import * as Result from "effect/Result"
import * as A from "../../../src/vocabulary/a/index.ts"
import * as B from "../../../src/vocabulary/b/index.ts"
import { ValueInputJson, ValueJson } from "../../../src/vocabulary/common/ValueJson.ts"
import { encode } from "../../../src/vocabulary/common/WireIssue.ts"
import { getterSelector, sendTarget, value } from "../../arbitraries/domain.ts"
import type { BodyName } from "./bodyReaders.ts"

/** Bodies of the value routes, and values, as clients send them: good ones, and ones with one defect anywhere. */

/** The JSON `shape` writes for each model value it can write (A's partial shapes cannot write them all). */
const written = <T, W>(shape: { readonly write: (value: T) => W | Result.Result<W, string> }, model: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  model.map((x) => encode(shape, x)).filter(Result.isSuccess).map((json) => json.success)

export const goodBodies: Record<BodyName, fc.Arbitrary<unknown>> = {
  "B fetch_values": written(B.GetterSelectorsJson, fc.array(getterSelector(), { maxLength: 3 })),
  "B send_values": written(B.SendBodyJson, fc.array(sendTarget(), { maxLength: 2 })),
  "A get_channel_value": written(A.GetSelectorsJson, fc.array(getterSelector(), { maxLength: 3 })),
  "A put_channel_value": written(A.PutValueBodyJson, fc.array(sendTarget(), { minLength: 1, maxLength: 1 })),
  Value: written(ValueJson, value),
  ValueInput: written(ValueInputJson, value)
}

/** Keys a defect may add: the shapes' own (in the wrong place, or twice over a union's forms), and others. */
const someKey = fc.oneof(
  fc.constantFrom("id", "select", "set", "value", "tags", "kind", "service", "service_tags", "Exactly", "OnOff", "Json", "C", "F", "h", "data"),
  fc.string({ maxLength: 6 })
)

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

/** Every place in `json`, as the path to it. */
const placesIn = (json: Json, path: ReadonlyArray<string | number> = []): Array<ReadonlyArray<string | number>> => {
  if (json === null || typeof json !== "object") return [path]
  const inner = Array.isArray(json)
    ? json.flatMap((item, index) => placesIn(item, [...path, index]))
    : Object.entries(json).flatMap(([key, item]) => placesIn(item, [...path, key]))
  return [path, ...inner]
}

/** `json` with the part at `path` changed by `change` (a copy; the rest shared). */
const changedAt = (json: Json, path: ReadonlyArray<string | number>, change: (part: Json) => Json): Json => {
  const [first, ...rest] = path
  if (first === undefined) return change(json)
  if (Array.isArray(json)) return json.map((item, index) => (index === first ? changedAt(item, rest, change) : item))
  if (json !== null && typeof json === "object") {
    return Object.fromEntries(Object.entries(json).map(([key, item]) => [key, key === first ? changedAt(item, rest, change) : item]))
  }
  return json
}

type Defect =
  | { readonly _tag: "replaced"; readonly by: Json }
  | { readonly _tag: "added"; readonly key: string; readonly by: Json }
  | { readonly _tag: "removed"; readonly at: number }

const defect: fc.Arbitrary<Defect> = fc.oneof(
  fc.record({ _tag: fc.constant("replaced" as const), by: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json> }),
  fc.record({ _tag: fc.constant("added" as const), key: someKey, by: fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json> }),
  fc.record({ _tag: fc.constant("removed" as const), at: fc.nat() })
)

/** The part with the defect: replaced, or (an object or array) with an entry added or removed. */
const withDefect = (part: Json, d: Defect): Json => {
  if (d._tag === "replaced") return d.by
  if (part === null || typeof part !== "object") return part
  if (Array.isArray(part)) {
    return d._tag === "added" ? [...part, d.by] : part.filter((_, index) => index !== d.at % Math.max(part.length, 1))
  }
  const entries = Object.entries(part)
  return d._tag === "added"
    ? { ...part, [d.key]: d.by }
    : Object.fromEntries(entries.filter((_, index) => index !== d.at % Math.max(entries.length, 1)))
}

/** A good body with one defect at a place drawn among all of its places. */
export const brokenBodies = (good: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc.tuple(good, fc.nat(), defect).map(([json, at, d]) => {
    const body = json as Json
    const places = placesIn(body)
    const place = places[at % places.length] ?? []
    return changedAt(body, place, (part) => withDefect(part, d))
  })

