import { onlyField } from "./SelectorsById.ts"

/**
 * The values a write most often carries, told without the schema (`SurelyRead`, WireShape.ts): a bare
 * `null`, or `{"<type>": payload}` whose payload is a state, a string, a number or `null` the type surely
 * takes. Any other value (a timestamp to parse, a color, binary data, an extension value, a nested Json)
 * says nothing here, and the schema decides and words a refusal.
 */

const isFiniteNumber = (json: unknown): json is number => typeof json === "number" && Number.isFinite(json)

const oneOf = (states: ReadonlyArray<string>) => (json: unknown): boolean => typeof json === "string" && states.includes(json)

const isDegrees = (json: unknown): boolean => isFiniteNumber(onlyField(json, "C")) || isFiniteNumber(onlyField(json, "F"))

/** Each type told here, by its key, with what its payload surely is. */
const simplePayloads: ReadonlyMap<string, (payload: unknown) => boolean> = new Map([
  ["Unit", (payload: unknown) => payload === null],
  ["OnOff", oneOf(["On", "Off"])],
  ["OpenClosed", oneOf(["Open", "Closed"])],
  ["DoorLocked", oneOf(["Locked", "Unlocked"])],
  ["Duration", (payload: unknown) => isFiniteNumber(payload) && payload >= 0],
  ["Temperature", isDegrees],
  ["String", (payload: unknown) => typeof payload === "string"],
  ["Json", (payload: unknown) => payload === null || typeof payload === "boolean" || typeof payload === "string" || isFiniteNumber(payload)]
])

/** Whether `json` is a value in a request body (a Value, or `null` for Unit) of a simple form the schema surely accepts. */
export const isSimpleValueInput = (json: unknown): boolean => {
  if (json === null) return true
  if (typeof json !== "object" || Array.isArray(json)) return false
  let told = false
  for (const key in json) {
    if (told) return false
    const payload = simplePayloads.get(key)
    if (payload === undefined || !payload(Reflect.get(json, key))) return false
    told = true
  }
  return told
}
