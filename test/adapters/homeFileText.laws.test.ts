import * as fc from "fast-check"
import { Result } from "effect"
import { expect } from "vitest"
import { defaultSimulatorAdapter, type Home, type InvalidHomeFile, parseHome, parseHomeFile } from "../../src/adapters/simulator/HomeFile.ts"
import { readHomeParts } from "../../src/adapters/simulator/HomeFileRead.ts"
import { homeFileParts } from "../../src/adapters/simulator/HomeFileText.ts"
import { AdapterId } from "../../src/domain/index.ts"
import { randomHomeFile } from "../crossVocabulary/randomHomeFile.ts"
import { law } from "../laws/law.ts"
import { homeFile } from "./homeFileArbitrary.ts"

/**
 * A home file's bytes read a service at a time where their text has the plain shape (HomeFileText.ts,
 * `parseHomeFile`) read as their text decoded and parsed whole (`parseHome`): the same home, or the same
 * refusal, word for word. On home files generated near the contract's edges, and good ones
 * (randomHomeFile.ts), written with whitespace anywhere JSON allows it, then often damaged by an edit or
 * two (a character taken out, put in or doubled, where the text's shape, strings and brackets are at
 * stake) and now and then by bytes that are not UTF-8.
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

/**
 * The file's bytes: its text in UTF-8, now and then with a byte no UTF-8 text holds, or the start of a
 * character cut short, put in at a place, or a byte order mark before it all.
 */
const homeFileBytes = fc.tuple(homeFileText, fc.oneof(
  { weight: 4, arbitrary: fc.constant(null) },
  fc.tuple(fc.nat(), fc.constantFrom([0xff], [0xc3], [0xe2, 0x82], [0xef, 0xbb, 0xbf]))
))
  .map(([text, odd]) => {
    const utf8 = new TextEncoder().encode(text)
    if (odd === null) return utf8
    const [place, inserted] = odd
    const at = inserted.length === 3 ? 0 : place % (utf8.length + 1)
    return Uint8Array.from([...utf8.subarray(0, at), ...inserted, ...utf8.subarray(at)])
  })

/** What reading a file came to: the home, or the message of its refusal. */
const outcome = (read: Result.Result<Home, InvalidHomeFile>) => (Result.isSuccess(read) ? { home: read.success } : { refused: read.failure.message })

law("home file text: read a service at a time, a file reads as it does parsed whole", { of: "files of services read a service at a time", floor: 0.15 }, 1_000, (note) =>
  fc.property(homeFileBytes, (bytes) => {
    const parts = homeFileParts(bytes)
    const byParts = parts === undefined ? undefined : readHomeParts(parts, adapter)
    note(byParts !== undefined && byParts.services.length > 0)
    expect(outcome(parseHomeFile(bytes, "home.json"))).toStrictEqual(outcome(parseHome(new TextDecoder().decode(bytes), "home.json")))
  }))
