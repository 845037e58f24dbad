import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type GatewayOverHttp, startGateway } from "../support/gatewayOverHttp.ts"
import { docExamples, withoutTimes } from "./docExamples.ts"

/**
 * Every example of every document in docs/ is a request and its exact answer, run in order against a
 * gateway on the documents' example home (docs/examples/home.json), so the docs cannot drift.
 */
const docsDir = join(import.meta.dirname, "..", "..", "docs")
const home: unknown = JSON.parse(readFileSync(join(docsDir, "examples", "home.json"), "utf8"))
const documents = readdirSync(docsDir)
  .filter((name) => name.endsWith(".md"))
  .map((name) => ({ name, examples: docExamples(readFileSync(join(docsDir, name), "utf8")) }))
  .filter((doc) => doc.examples.length > 0)

/** Documents whose examples must exist and run: the API is explained by example. */
const documentsWithExamples = ["vocabulary-a.md", "vocabulary-b.md", "migrating-a-to-b.md", "auth.md"]

it("finds runnable examples in every vocabulary document", () => {
  const withExamples = documents.map((d) => d.name)
  for (const name of documentsWithExamples) expect(withExamples).toContain(name)
})

describe.each(documents)("docs/$name", ({ examples }) => {
  let gateway: GatewayOverHttp
  beforeAll(async () => {
    gateway = await startGateway(home)
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
