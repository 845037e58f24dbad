import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"

/**
 * JSON text is read in src by `parseJson` (src/vocabulary/common/JsonText.ts) and nothing else: V8's
 * `JSON.parse` misreads escaped object keys once the process has read some other text
 * (src/vocabulary/common/EscapedJson.ts), and `Response.json()` is that same `JSON.parse`. A use elsewhere
 * is named by file and line, unless it is listed here with the reason it cannot meet the fault.
 */
const allowed: ReadonlyArray<{ readonly file: string; readonly reason: string }> = [
  { file: "src/vocabulary/common/JsonText.ts", reason: "parseJson itself: JSON.parse first, for its verdict and its message" },
  {
    file: "src/vocabulary/common/EscapedJson.ts",
    reason: "the reader of escaped text decodes one string token at a time: a lone string makes no object, so no key to misread"
  },
  {
    file: "src/auth/Tokens.ts",
    reason: "a stored scope: text the gateway wrote itself (encodeScope), whose keys are the scope's field names, none escaped"
  }
]

const root = join(import.meta.dirname, "../..")

const sources = (folder: string): ReadonlyArray<string> =>
  readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))

/** A call of `JSON.parse` or of a `.json()` method, in a line that is not a comment. */
const reader = /\bJSON\.parse\s*\(|\.json\s*\(\s*\)/

/** Each line of `files` that reads JSON text without parseJson, as `file:line: text`. */
const readersIn = (files: ReadonlyArray<string>, source: (file: string) => string): ReadonlyArray<string> =>
  files.flatMap((file) =>
    source(file).split("\n").flatMap((line, index) => {
      const code = line.trim()
      const comment = code.startsWith("//") || code.startsWith("*") || code.startsWith("/*")
      return !comment && reader.test(code) ? [`${file}:${index + 1}: ${code}`] : []
    })
  )

describe("JSON text in src", () => {
  const files = sources("src")
  const uses = readersIn(files, (file) => readFileSync(join(root, file), "utf8"))

  it("is read with JSON.parse or .json() only where parseJson lives, or where a reason is listed", () => {
    expect(files.length).toBeGreaterThan(100)
    expect(uses.filter((use) => !allowed.some(({ file }) => use.startsWith(`${file}:`)))).toEqual([])
  })

  it("lists no file that no longer reads JSON text", () => {
    expect(allowed.filter(({ file }) => !uses.some((use) => use.startsWith(`${file}:`)))).toEqual([])
  })

  it("names the file and line of a new reader, whatever its form", () => {
    const source = [
      "// JSON.parse(text) in a comment is not a use",
      "const a = JSON.parse(text)",
      "const b = await response.json()",
      "const c = JSON.stringify(b)",
      "  JSON.parse (x)"
    ].join("\n")
    expect(readersIn(["src/somewhere/New.ts"], () => source)).toEqual([
      "src/somewhere/New.ts:2: const a = JSON.parse(text)",
      "src/somewhere/New.ts:3: const b = await response.json()",
      "src/somewhere/New.ts:5: JSON.parse (x)"
    ])
  })
})
