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

/** Whether `json` is text a channel id's rule surely accepts. */
export const isChannelIdText = (json: unknown): boolean => typeof json === "string" && surelyBoundedText(json)
