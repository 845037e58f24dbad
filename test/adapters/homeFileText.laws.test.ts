import * as fc from "fast-check"
import { Result } from "effect"
import { expect } from "vitest"
import { defaultSimulatorAdapter } from "../../src/adapters/simulator/HomeFile.ts"
import { readHomeJson, readHomeParts } from "../../src/adapters/simulator/HomeFileRead.ts"
import { homeFileParts } from "../../src/adapters/simulator/HomeFileText.ts"
import { AdapterId } from "../../src/domain/index.ts"
import { parseJson } from "../../src/vocabulary/common/JsonText.ts"
import { randomHomeFile } from "../crossVocabulary/randomHomeFile.ts"
import { law } from "../laws/law.ts"
import { homeFile } from "./homeFileArbitrary.ts"

/**
 * A home file read a service at a time (HomeFileText.ts, `readHomeParts`) reads as the file parsed whole
 * and read (`readHomeJson`): the same home, or no home where the whole reading has none (the file is then
 * read whole, which explains why). On home files generated near the contract's edges, and good ones
 * (randomHomeFile.ts), written with whitespace anywhere JSON allows it, then often damaged by an edit or two: a character taken out, put in or doubled, where the text's
 * shape, strings and brackets are at stake.
 */

const adapter = AdapterId.make(defaultSimulatorAdapter)

/** JSON's whitespace, a few characters of it, each of the four. */
const whitespace = fc.array(fc.constantFrom(" ", "\t", "\n", "\r"), { maxLength: 2 }).map((chars) => chars.join(""))

/** `json` as JSON text, with the `spaces` taken in turn between its tokens. */
const writtenWith = (json: unknown, spaces: ReadonlyArray<string>): string => {
  let next = 0
  const space = (): string => spaces[next++ % spaces.length] ?? ""
  const write = (value: unknown): string => {
    if (Array.isArray(value)) return `[${space()}${value.map((item) => `${write(item)}${space()}`).join(`,${space()}`)}]`
    if (value === null || typeof value !== "object") return JSON.stringify(value)
    const members = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}${space()}:${space()}${write(item)}${space()}`)
    return `{${space()}${members.join(`,${space()}`)}}`
  }
  return `${space()}${write(json)}${space()}`
}

/** One edit of a text at a place: a character out, one of the text's structure (or a line's end) in, or a character doubled. */
const edit = fc.tuple(fc.nat(), fc.constantFrom("out", "double", "{", "}", "[", "]", ",", ":", "\"", "\\", " ", "\n", "a", "1"))
const edited = (text: string, [place, what]: readonly [number, string]): string => {
  const at = text.length === 0 ? 0 : place % text.length
  if (what === "out") return text.slice(0, at) + text.slice(at + 1)
  if (what === "double") return text.slice(0, at + 1) + text.slice(at)
  return text.slice(0, at) + what + text.slice(at)
}

/** What a file's text holds between its first and last brace: its object's members, if it is one. */
const members = (text: string): string => text.slice(text.indexOf("{") + 1, text.lastIndexOf("}"))

/** One of the members of `json`, if it is an object of any, alone in an object. */
const oneMember = (json: unknown, pick: number): unknown => {
  const entries = json !== null && typeof json === "object" ? Object.entries(json) : []
  const entry = entries[pick % Math.max(entries.length, 1)]
  return entry === undefined ? {} : Object.fromEntries([entry])
}

/**
 * Half of the files as written, the others damaged; one in six as written after one of its members
 * damaged, which the file then repeats: `JSON.parse` keeps a repeated key's last value, but the text is
 * not JSON.
 */
const homeFileText = fc.tuple(fc.oneof(homeFile, randomHomeFile), fc.array(whitespace, { minLength: 1, maxLength: 5 }), fc.array(edit, { minLength: 1, maxLength: 2 }), fc.nat(5), fc.nat())
  .map(([json, spaces, edits, how, pick]) => {
    const text = writtenWith(json, spaces)
    if (how < 3) return text
    if (how < 5) return edits.reduce(edited, text)
    return `{${members(edits.reduce(edited, writtenWith(oneMember(json, pick), spaces)))},${members(text)}}`
  })

law("home file text: read a service at a time, a file reads as it does parsed whole", { of: "files of services read a service at a time", floor: 0.2 }, 1_000, (note) =>
  fc.property(homeFileText, (text) => {
    const parts = homeFileParts(text)
    const byParts = parts === undefined ? undefined : readHomeParts(parts, adapter)
    note(byParts !== undefined && byParts.services.length > 0)
    if (parts === undefined) return
    const parsed = parseJson(text)
    const whole = Result.isSuccess(parsed) ? readHomeJson(parsed.success, adapter) : undefined
    expect(byParts).toStrictEqual(whole)
  }))
