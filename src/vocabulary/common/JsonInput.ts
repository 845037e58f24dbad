import { Result, type Schema } from "effect"
import { ChannelId, normalizeTags, ServiceId, Tag } from "../../domain/Identifier.ts"
import { decodeWith, type InputPath, InvalidInput } from "./InvalidInput.ts"

/**
 * Small readers for parsed JSON bodies, shared by both codecs. Each returns a Result whose failure names
 * the place in the body, so that a client reads exactly what is wrong and where.
 */
export type Decoded<A> = Result.Result<A, InvalidInput>

/** A JSON object as parsed: own keys only are read. */
export type JsonObject = { readonly [key: string]: unknown }

export const invalid = (path: InputPath, reason: string): Decoded<never> =>
  Result.fail(new InvalidInput({ path, reason }))

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

const expected = (path: InputPath, what: string, json: unknown): Decoded<never> =>
  invalid(path, `expected ${what}, got ${describeJson(json)}`)

export const isJsonObject = (json: unknown): json is JsonObject =>
  json !== null && typeof json === "object" && !Array.isArray(json)

export const readObject = (json: unknown, path: InputPath, what: string): Decoded<JsonObject> =>
  isJsonObject(json) ? Result.succeed(json) : expected(path, what, json)

/** An object whose keys are all among `known`; the first other key is refused by name. */
export const readObjectWithKeys = (
  json: unknown,
  path: InputPath,
  what: string,
  known: ReadonlyArray<string>
): Decoded<JsonObject> => {
  if (!isJsonObject(json)) return expected(path, what, json)
  for (const key of Object.keys(json)) {
    if (!known.includes(key)) {
      return invalid(path, `unknown field ${JSON.stringify(key)} (${what} takes ${known.join(", ")})`)
    }
  }
  return Result.succeed(json)
}

/** An own field of an object: `undefined` when absent (never something inherited such as `constructor`). */
export const field = (object: JsonObject, key: string): unknown => Object.hasOwn(object, key) ? object[key] : undefined

/** A field that must be present (JSON `null` counts as present). */
export const requiredField = (object: JsonObject, key: string, path: InputPath): Decoded<unknown> =>
  Object.hasOwn(object, key) ? Result.succeed(object[key]) : invalid(path, `missing field ${JSON.stringify(key)}`)

/** A field that must be present, read by `decode` at its own path. */
export const readRequired = <A>(
  object: JsonObject,
  key: string,
  path: InputPath,
  decode: (json: unknown, path: InputPath) => Decoded<A>
): Decoded<A> => Result.flatMap(requiredField(object, key, path), (json) => decode(json, [...path, key]))

/** An object with exactly one key, as values, errors and events are written: its key and what it holds. */
export const readSingleKey = (
  json: unknown,
  path: InputPath,
  what: string
): Decoded<readonly [key: string, payload: unknown]> => {
  if (!isJsonObject(json)) return expected(path, what, json)
  const keys = Object.keys(json)
  const [key] = keys
  if (key === undefined || keys.length > 1) {
    return invalid(path, `expected ${what}, got an object with ${keys.length} keys`)
  }
  return Result.succeed([key, json[key]] as const)
}

export const readArray = (json: unknown, path: InputPath, what: string): Decoded<ReadonlyArray<unknown>> =>
  Array.isArray(json) ? Result.succeed(json) : expected(path, what, json)

/** Decodes every item; the first failure is the answer (a body is valid whole or not at all). */
export const readEach = <A>(
  items: ReadonlyArray<unknown>,
  path: InputPath,
  decode: (item: unknown, path: InputPath) => Decoded<A>
): Decoded<ReadonlyArray<A>> => {
  const out: Array<A> = []
  for (let i = 0; i < items.length; i++) {
    const decoded = decode(items[i], [...path, i])
    if (Result.isFailure(decoded)) return Result.fail(decoded.failure)
    out.push(decoded.success)
  }
  return Result.succeed(out)
}

export const readArrayOf = <A>(
  json: unknown,
  path: InputPath,
  what: string,
  decode: (item: unknown, path: InputPath) => Decoded<A>
): Decoded<ReadonlyArray<A>> =>
  Result.flatMap(readArray(json, path, what), (items) => readEach(items, path, decode))

export const readString = (json: unknown, path: InputPath, what = "a string"): Decoded<string> =>
  typeof json === "string" ? Result.succeed(json) : expected(path, what, json)

export const readBoolean = (json: unknown, path: InputPath, what = "a boolean"): Decoded<boolean> =>
  typeof json === "boolean" ? Result.succeed(json) : expected(path, what, json)

/** A finite number; `-0` reads as `0` so that equal inputs give equal values. */
export const readFinite = (json: unknown, path: InputPath, what = "a number"): Decoded<number> =>
  typeof json === "number" && Number.isFinite(json) ? Result.succeed(json + 0) : expected(path, what, json)

/**
 * A reader for one kind of identifier (or tag): a string checked by the domain's rule (non-empty, at most
 * 256 characters, no control characters), whose messages the client reads as they are.
 */
export const identifierReader = <S extends Schema.Decoder<unknown>>(schema: S, what: string) => {
  const decode = decodeWith(schema)
  return (json: unknown, path: InputPath): Decoded<S["Type"]> =>
    typeof json === "string" ? decode(json, path) : expected(path, what, json)
}

export const readChannelId = identifierReader(ChannelId, "a channel id (a string)")
export const readServiceId = identifierReader(ServiceId, "a service id (a string)")
/** A service id where vocabulary A calls services nodes. */
export const readNodeId = identifierReader(ServiceId, "a node id (a string)")

const readTag = identifierReader(Tag, "a tag (a string)")

/** A list of tags, sorted and without duplicates: the canonical form of a tag set. */
export const readTags = (json: unknown, path: InputPath): Decoded<ReadonlyArray<Tag>> =>
  Result.map(readArrayOf(json, path, "an array of strings", readTag), normalizeTags)
