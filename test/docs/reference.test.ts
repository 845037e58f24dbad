import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { describe, expect, it } from "vitest"
import { ChannelError } from "../../src/domain/ChannelError.ts"
import { ChannelId, ServiceId } from "../../src/domain/Identifier.ts"
import { openApiDocument } from "../../src/http/openapi/OpenApiDocument.ts"
import { routes } from "../../src/main.ts"
import * as A from "../../src/vocabulary/a/index.ts"
import * as B from "../../src/vocabulary/b/index.ts"
import { fixedMessagesOf, mentions, shown } from "./fixedMessages.ts"
import { anchorsOf, linksOf } from "./markdownLinks.ts"

/**
 * docs/reference.md is the contract inside the repository, and the one place code, tests and docs
 * cite: `docs/reference.md §N` (or `§N.M`; a list `§6.4, §6.5` or a range `§2–§7` after it). This
 * checks that every citation finds its section, that nothing cites a document the repository does
 * not hold, and that the reference names every route, error variant and fixed error message of the
 * code. Each failure lists everything missing.
 */

const root = join(import.meta.dirname, "..", "..")
const referencePath = join(root, "docs", "reference.md")
const reference = readFileSync(referencePath, "utf8")
/** The reference as a reader reads it: JSON-escaped quotes (`"\"Bearer\""`) read as quotes. */
const referenceText = reference.replaceAll("\\\"", "\"")

/** The project's own text files under `dir`: not a fixture package's dependencies (test/fixtures/openapi-types), nor what a build wrote (packages/client/dist). */
const textFiles = (dir: string): ReadonlyArray<string> =>
  readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((name) => /\.(ts|md|json)$/.test(name) && !name.split("/").some((part) => part === "node_modules" || part === "dist"))
    .map((name) => join(dir, name))

/** Everything that may cite: the sources, the packages, the tests, the docs, the benchmarks, the README. */
const citing = [...textFiles("src"), ...textFiles("packages"), ...textFiles("test"), ...textFiles("docs"), ...textFiles("bench"), "README.md"]
const read = (file: string) => readFileSync(join(root, file), "utf8")
const self = relative(root, import.meta.filename)

const lineOf = (text: string, index: number) => text.slice(0, index).split("\n").length

/** The sections of the reference: headings `## §6 …`, `### §6.4 …`. */
const sections = new Set([...reference.matchAll(/^#{2,3} §(\d+(?:\.\d+)?) /gm)].map((m) => m[1]))

describe("citations", () => {
  it("every `docs/reference.md §N` names a section of the reference", () => {
    const broken: Array<string> = []
    let count = 0
    for (const file of citing) {
      const text = read(file)
      for (const citation of text.matchAll(/reference\.md((?:(?:\s*,\s*|\s*–\s*|\s+and\s+|\s+)§\d+(?:\.\d+)?)+)/g)) {
        for (const [, section = ""] of (citation[1] ?? "").matchAll(/§(\d+(?:\.\d+)?)/g)) {
          count++
          if (!sections.has(section)) broken.push(`${file}:${lineOf(text, citation.index)} cites §${section}`)
        }
      }
    }
    expect(broken).toEqual([])
    // The citations were found at all: the pattern did not silently stop matching.
    expect(count).toBeGreaterThan(100)
  })

  it("no file cites a document outside the repository", () => {
    const outside = /\b(?:wire|interface-spec|style)\.md\b|shared\/spec|shared\/style|\.\.\/shared\b|\/work\/shared/g
    const found = citing
      .filter((file) => file !== self)
      .flatMap((file) => {
        const text = read(file)
        return [...text.matchAll(outside)].map((m) => `${file}:${lineOf(text, m.index)}: ${m[0]}`)
      })
    expect(found).toEqual([])
  })

  it("every docs/….md that code and tests name exists", () => {
    const missing = [...textFiles("src"), ...textFiles("packages"), ...textFiles("test"), ...textFiles("bench")].flatMap((file) => {
      const text = read(file)
      return [...text.matchAll(/\bdocs\/[\w./-]+?\.md\b/g)]
        .filter((m) => !existsSync(join(root, m[0])))
        .map((m) => `${file}:${lineOf(text, m.index)}: ${m[0]}`)
    })
    expect(missing).toEqual([])
  })

  it("every relative link of the markdown documents reaches a file of the repository, and its heading", () => {
    const markdown = citing.filter((file) => file.endsWith(".md"))
    const broken = markdown.flatMap((file) =>
      linksOf(read(file)).flatMap(({ line, target }) => {
        if (/^[a-z]+:/i.test(target)) return []
        const [path = "", anchor] = target.split("#")
        const targetFile = path === "" ? join(root, file) : resolve(dirname(join(root, file)), path)
        const where = `${file}:${line}: ${target}`
        if (relative(root, targetFile).startsWith("..") || !existsSync(targetFile)) return [`${where} (no such file)`]
        if (anchor === undefined || !targetFile.endsWith(".md")) return []
        return anchorsOf(readFileSync(targetFile, "utf8")).has(anchor) ? [] : [`${where} (no such heading)`]
      })
    )
    expect(broken).toEqual([])
  })
})

describe("what the reference names", () => {
  it("every route of the OpenAPI document, by method and path", () => {
    const document = openApiDocument(routes)
    const lines = reference.split("\n")
    const missing = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => method.toUpperCase()).filter((method) =>
        !lines.some((line) => line.includes(`\`${path}\``) && new RegExp(`\\b${method}\\b`).test(line))
      ).map((method) => `${method} ${path}`)
    )
    expect(Object.keys(document.paths).length).toBeGreaterThan(20)
    expect(missing).toEqual([])
  })

  /** One of each per-channel error, so that each vocabulary's name for it can be read off its encoding. */
  const channelErrors: { readonly [K in ChannelError["_tag"]]: Extract<ChannelError, { _tag: K }> } = {
    NoSuchService: { _tag: "NoSuchService", id: ServiceId.make("service:x@sim") },
    NoSuchGetter: { _tag: "NoSuchGetter", id: ChannelId.make("getter:x@sim") },
    NoSuchSetter: { _tag: "NoSuchSetter", id: ChannelId.make("setter:x@sim") },
    TypeMismatch: { _tag: "TypeMismatch", expected: "OnOff", got: "String" },
    DeviceFailure: { _tag: "DeviceFailure", message: "failed" }
  }

  it("every error variant: the gateway's tagged errors, and each vocabulary's per-channel errors", () => {
    const tagged = textFiles("src").flatMap((file) => [...read(file).matchAll(/TaggedError\("(\w+)"\)/g)].map((m) => m[1] ?? ""))
    const wire = Object.values(channelErrors).flatMap((error) => [
      ...Object.keys(A.ChannelErrorJson.write(error) as object),
      ...Object.keys(B.ChannelErrorJson.write(error) as object)
    ])
    const variants = new Set([...tagged, ...Object.keys(ChannelError.cases), ...wire])
    expect(tagged.length).toBeGreaterThan(20)
    expect([...variants].filter((variant) => !new RegExp(`\\b${variant}\\b`).test(reference))).toEqual([])
  })

  it("every fixed error message of the code", () => {
    // The dashboard's sentences are the page's own, shown to a person; the API never sends them.
    const messages = textFiles("src").filter((file) => !file.startsWith(join("src", "dashboard")))
      .flatMap((file) => fixedMessagesOf(file, read(file)))
    expect(messages.length).toBeGreaterThan(50)
    expect(messages.filter((message) => !mentions(referenceText, message)).map(shown)).toEqual([])
  })
})
