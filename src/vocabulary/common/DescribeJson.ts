/** A JSON object as parsed: own keys only are read. */
export type JsonObject = { readonly [key: string]: unknown }

export const isJsonObject = (json: unknown): json is JsonObject =>
  json !== null && typeof json === "object" && !Array.isArray(json)

/** How a person would name what they sent: `"on"`, `256`, "an array"… (short scalars are quoted as sent). */
export const describeJson = (json: unknown): string => {
  if (json === null) return "null"
  if (Array.isArray(json)) return "an array"
  switch (typeof json) {
    case "string":
      return json.length <= 40 ? JSON.stringify(json) : "a long string"
    case "number":
    case "boolean":
      return String(json)
    case "object":
      return "an object"
    default:
      return "nothing"
  }
}
