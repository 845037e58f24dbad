import { type ChildProcess, spawn } from "node:child_process"
import { join } from "node:path"
import { createInterface } from "node:readline"
import * as fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { noteSpawned } from "../../support/spawnedProcesses.ts"
import { type BodyName, bodyReaders, oneLine } from "./bodyReaders.ts"
import { brokenBodies, goodBodies } from "./bodyArbitraries.ts"

/**
 * The gateway reads the bodies of reads and writes with Effect's compiled parser (src/cli/Launch.ts enables
 * it), which hands a body it refuses to the interpreter for the words of the 400; the tests elsewhere run
 * the interpreter alone. For good bodies and bodies with one defect anywhere (a field added or removed, a
 * part replaced by other JSON: a union's members included), the compiled reading must accept exactly what
 * the interpreter accepts, read it as the same model, and refuse the rest with the same message. The
 * compiled side runs in a process of its own (compiledDecoding.ts), since the compiler is enabled for a
 * whole process.
 */

let child: ChildProcess
/** The requests sent and not yet answered, in order. */
const pending: Array<{ readonly resolve: (line: string) => void; readonly reject: (error: Error) => void }> = []
let stderr = ""

// Node reads the decoder's TypeScript and Effect's modules first: seconds on a busy machine.
beforeAll(async () => {
  child = spawn(process.execPath, [join(import.meta.dirname, "compiledDecoding.ts")], { stdio: ["pipe", "pipe", "pipe"] })
  noteSpawned(child, false)
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  if (child.stdout === null) throw new Error("the compiled decoder's stdout is not piped")
  createInterface({ input: child.stdout }).on("line", (line) => pending.shift()?.resolve(line))
  child.once("exit", (code) => {
    for (const request of pending.splice(0)) request.reject(new Error(`the compiled decoder exited (${code}): ${stderr}`))
  })
  expect(await new Promise((resolve, reject) => pending.push({ resolve, reject }))).toBe("ready")
}, 90_000)

afterAll(async () => {
  if (child.exitCode !== null) return
  // Its input ended, the decoder's loop ends and the process exits.
  const exited = new Promise((resolve) => child.once("exit", resolve))
  child.stdin?.end()
  await exited
})

/** What the compiled decoder answers for `text` read with `name`, as JSON text. */
const compiledDecode = (name: BodyName, text: string): Promise<string> =>
  new Promise((resolve, reject) => {
    if (child.exitCode !== null) reject(new Error(`the compiled decoder exited (${child.exitCode}): ${stderr}`))
    pending.push({ resolve, reject })
    child.stdin?.write(`${oneLine([name, text])}\n`)
  })

const sameReading = (name: BodyName) => async (body: unknown) => {
  const text = JSON.stringify(body)
  const interpreted = oneLine(bodyReaders[name].read(JSON.parse(text)))
  expect(await compiledDecode(name, text)).toBe(interpreted)
}

describe("a body read by the compiled parser", () => {
  for (const name of Object.keys(bodyReaders) as Array<BodyName>) {
    it(`reads a good ${name} body as the interpreter does`, async () => {
      await fc.assert(fc.asyncProperty(goodBodies[name], sameReading(name)), { numRuns: 150 })
    })

    it(`reads a ${name} body with one defect as the interpreter does: the same model, or the same message`, async () => {
      await fc.assert(fc.asyncProperty(brokenBodies(goodBodies[name]), sameReading(name)), { numRuns: 400 })
    })
  }

  it("answers an unknown field of a body with the interpreter's words", async () => {
    expect(JSON.parse(await compiledDecode("B send_values", `{"select":{"id":"setter:x"},"value":{"OnOff":"On"},"extra":1}`))).toMatchObject({
      _tag: "Failure",
      failure: { reason: expect.stringContaining(`unknown field "extra"`) }
    })
  })
})
