import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { parseJson } from "./BridgeMessages.ts"

/**
 * The value templates of MQTT discovery the gateway evaluates: a plain JSON path into the payload
 * (`{{ value_json.temperature }}`, `{{ value_json['state'] }}`, `{{ value_json.a.b }}`) or the
 * payload itself (`{{ value }}`). Anything else (a filter, an `if`, arithmetic) is Jinja the gateway
 * does not run: the channel it would read is left out.
 */

/** Reads the text a template renders from a payload; `None` when the payload does not hold it. */
export type Extract = (payload: string) => Option.Option<string>

const segment = String.raw`\.([A-Za-z_][A-Za-z0-9_]*)|\[\s*(?:'([^']*)'|"([^"]*)"|(\d+))\s*\]`
const wholePath = new RegExp(String.raw`^\s*\{\{\s*value_json((?:${segment})+)\s*\}\}\s*$`)
const plainValue = /^\s*\{\{\s*value\s*\}\}\s*$/

/** A JSON value as Jinja renders it into text: a string as it is, a number or boolean as its JSON text. */
const rendered = (json: unknown): Option.Option<string> =>
  typeof json === "string"
    ? Option.some(json)
    : typeof json === "number" || typeof json === "boolean"
    ? Option.some(String(json))
    : Option.none()

const follow = (path: ReadonlyArray<string>): Extract => (payload) => {
  const parsed = parseJson(payload)
  if (Option.isNone(parsed)) return Option.none()
  let json = parsed.value
  for (const key of path) {
    if (typeof json !== "object" || json === null || !Object.hasOwn(json, key)) return Option.none()
    json = (json as Readonly<Record<string, unknown>>)[key]
  }
  return rendered(json)
}

/** The payload as it is (no template). */
export const wholePayload: Extract = (payload) => Option.some(payload)

/** How to read a template, or the template itself when the gateway cannot evaluate it. */
export const readTemplate = (template: Option.Option<string>): Result.Result<Extract, string> => {
  if (Option.isNone(template) || plainValue.test(template.value)) return Result.succeed(wholePayload)
  const match = wholePath.exec(template.value)
  if (match === null) return Result.fail(template.value)
  const path = [...(match[1] ?? "").matchAll(new RegExp(segment, "g"))].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4] ?? "")
  return Result.succeed(follow(path))
}

/** A command template: none, or one whose only expression is `{{ value }}`, filled in with the payload. */
export const readCommandTemplate = (template: Option.Option<string>): Result.Result<(payload: string) => string, string> => {
  if (Option.isNone(template)) return Result.succeed((payload) => payload)
  const parts = template.value.split(/\{\{\s*value\s*\}\}/)
  if (parts.some((part) => part.includes("{{") || part.includes("{%"))) return Result.fail(template.value)
  return Result.succeed((payload) => parts.join(payload))
}
