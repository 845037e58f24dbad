import { readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import { demoHomeIdList } from "./demoHomeIds.ts"

const simulatorDoc = readFileSync(join(import.meta.dirname, "..", "..", "docs", "simulator.md"), "utf8")

/** The ```text block after "Every id of the demo home" in docs/simulator.md. */
const listedIds = (): string | undefined =>
  /Every id of the demo home[\s\S]*?```text\n([\s\S]*?)\n```/.exec(simulatorDoc)?.[1]

it("docs/simulator.md lists exactly the ids of the demo home, in its order", () => {
  expect(listedIds()).toBe(demoHomeIdList())
})

it("docs/simulator.md names only ids of the demo home, the clock's, or of its own example home", () => {
  const demoIds = new Set(demoHomeIdList().split("\n").map((line) => line.trim()))
  const named = [...simulatorDoc.matchAll(/`((?:service|getter|setter):[a-z0-9-]+@sim)\b/g)].map((m) => m[1])
  const exampleIds = new Set([...simulatorDoc.matchAll(/"id": "((?:service|getter|setter):[a-z0-9-]+@sim)"/g)].map((m) => m[1]))
  for (const id of named) expect({ id, known: demoIds.has(id ?? "") || exampleIds.has(id) }).toEqual({ id, known: true })
})
