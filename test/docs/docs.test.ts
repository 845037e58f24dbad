import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { Result } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parseHome } from "../../src/adapters/simulator/HomeFile.ts"
import { operationNames } from "../../src/vocabulary/Translation.ts"
import { type GatewayOverHttp, startGateway } from "../support/gatewayOverHttp.ts"
import { runGateway } from "../support/spawnGateway.ts"
import { docExamples, serveCommand, translateExamples, withoutTimes } from "./docExamples.ts"

/**
 * Every example of every document in docs/ is a request and its exact answer, run in order against a
 * gateway started as the document says (its `npx gateway serve …` line), so the docs cannot drift.
 */
const root = join(import.meta.dirname, "..", "..")
const docsDir = join(root, "docs")
const documents = readdirSync(docsDir)
  .filter((name) => name.endsWith(".md"))
  .map((name) => {
    const markdown = readFileSync(join(docsDir, name), "utf8")
    return { name, examples: docExamples(markdown), serve: serveCommand(markdown), translations: translateExamples(markdown) }
  })
const withExamples = documents.filter((doc) => doc.examples.length > 0)

/** Documents whose examples must exist and run: the API is explained by example. */
const documentsWithExamples = ["vocabulary-a.md", "vocabulary-b.md", "migrating-a-to-b.md", "auth.md"]

it("finds runnable examples in every vocabulary document", () => {
  const names = withExamples.map((d) => d.name)
  for (const name of documentsWithExamples) expect(names).toContain(name)
})

it("every document with examples states, before them, the command they assume", () => {
  for (const { name, examples, serve } of withExamples) {
    expect({ name, states: serve !== undefined }).toEqual({ name, states: true })
    expect({ name, before: (serve?.line ?? Infinity) < (examples[0]?.line ?? 0) }).toEqual({ name, before: true })
  }
})

describe.each(withExamples)("docs/$name", ({ examples, serve }) => {
  let gateway: GatewayOverHttp
  beforeAll(async () => {
    if (serve?.home === undefined) throw new Error("the examples runner needs --home in the stated command")
    const home: unknown = JSON.parse(readFileSync(join(root, serve.home), "utf8"))
    gateway = await startGateway(home, { clock: serve.clock })
  })
  afterAll(() => gateway.close())

  it.each(examples)("line $line: $method $path answers as documented", async (example) => {
    const fill = (text: string) =>
      text.replaceAll("$TOKEN", gateway.token).replaceAll("$ADMIN_BASIC", Buffer.from(`admin:${gateway.adminPassword}`).toString("base64"))
    const headers = Object.fromEntries(Object.entries(example.headers).map(([name, value]) => [name, fill(value)]))
    const answer = await gateway.call(example.method, fill(example.path), example.body, headers)
    expect({ status: answer.status, body: withoutTimes(answer.json) }).toEqual({
      status: example.status,
      body: withoutTimes(example.response)
    })
  })
})

const translations = documents.flatMap(({ name, translations }) => translations.map((t) => ({ name, ...t })))

it("finds the gateway translate examples", () => {
  expect(translations.length).toBeGreaterThan(0)
})

describe.each(translations)("docs/$name, line $line: gateway translate $operation", ({ operation, body, printed }) => {
  it("prints what the document shows", async () => {
    const exited = await runGateway(["translate", operation, ...(body === undefined ? [] : [body])])
    expect({ code: exited.code, printed: JSON.parse(exited.stdout) }).toEqual({ code: 0, printed })
  })
})

it("docs/migrating-a-to-b.md names every operation gateway translate accepts", () => {
  const markdown = readFileSync(join(docsDir, "migrating-a-to-b.md"), "utf8")
  const section = markdown.slice(markdown.indexOf("## `gateway translate`"))
  for (const name of Object.keys(operationNames)) expect({ name, named: section.includes(`\`${name}\``) }).toEqual({ name, named: true })
})

it("the home file example of docs/simulator.md is a home the simulator reads", () => {
  const markdown = readFileSync(join(docsDir, "simulator.md"), "utf8")
  const example = /## The home file[\s\S]*?```json\n([\s\S]*?)\n```/.exec(markdown)?.[1]
  if (example === undefined) throw new Error("no home file example under \"## The home file\"")
  const home = parseHome(example, "docs/simulator.md")
  expect(Result.isSuccess(home) ? "read" : home.failure.message).toBe("read")
})
