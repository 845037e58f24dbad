import { surelyBoundedText } from "../../domain/Identifier.ts"

/**
 * The most common body of a read: selectors of channels by id. Told without the schema (`SurelyRead`,
 * WireShape.ts): each vocabulary says how its selector by id is written, and what is not surely that form
 * goes to the schema.
 */

/** The value of `json`'s one field if `json` is an object with that field alone; `undefined` otherwise. */
export const onlyField = (json: unknown, key: string): unknown => {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined
  let found = false
  for (const name in json) {
    if (name !== key || found) return undefined
    found = true
  }
  return found ? Reflect.get(json, key) : undefined
}

/**
 * Whether `json` is an object of the two fields `first` and `second` alone, in either order, whose values
 * pass `isFirst` and `isSecond`: a write's target (`{"select": …, "value": …}`, `{"set": …, "value": …}`).
 */
export const hasTwoFields = (
  json: unknown,
  first: string,
  isFirst: (json: unknown) => boolean,
  second: string,
  isSecond: (json: unknown) => boolean
): boolean => {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return false
  let count = 0
  for (const name in json) {
    if (name !== first && name !== second) return false
    count++
  }
  return count === 2 && isFirst(Reflect.get(json, first)) && isSecond(Reflect.get(json, second))
}

/** Whether `json` is text a channel id's rule surely accepts. */
export const isChannelIdText = (json: unknown): boolean => typeof json === "string" && surelyBoundedText(json)
