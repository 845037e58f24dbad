import { join } from "node:path"
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads"
import * as fc from "fast-check"
import * as Result from "effect/Result"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { compileCacheEnv } from "../../support/compileCache.ts"
import { law } from "../../laws/law.ts"
import { type BodyName, bodyReaders, oneLine } from "./bodyReaders.ts"
import { brokenBodies, goodBodies } from "./bodyArbitraries.ts"

/**
 * The gateway reads the bodies of reads and writes with Effect's compiled parser (src/cli/Launch.ts enables
 * it), which hands a body it refuses to the interpreter for the words of the 400; the tests elsewhere run
 * the interpreter alone. For good bodies and bodies with one defect anywhere (a field added or removed, a
 * part replaced by other JSON: a union's members included), the compiled reading must accept exactly what
 * the interpreter accepts, read it as the same model, and refuse the rest with the same message. The
 * compiled side runs in a worker thread of its own (compiledDecoding.ts): the compiler is enabled for all
 * the schemas of the modules it is enabled in, and a thread loads its modules afresh. (It was a process:
 * a thread spares a Node start, and each body's trip through both event loops.)
 */

const channel = new MessageChannel()
/** Set by the decoder's thread once it has answered (compiledDecoding.ts). */
const answered = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT))
let decoder: Worker | undefined
/** Why the decoder's thread ended, once it has. */
let ended = ""

// The thread reads the decoder's TypeScript and Effect's modules first: seconds on a busy machine.
beforeAll(async () => {
  const thread = new Worker(join(import.meta.dirname, "compiledDecoding.ts"), {
    workerData: { port: channel.port2, answered },
    transferList: [channel.port2],
    // Node reads the thread's NODE_COMPILE_CACHE from the environment given to it.
    env: { ...process.env, ...compileCacheEnv },
    execArgv: []
  })
  decoder = thread
  thread.once("error", (error) => (ended = `failed: ${String(error)}`))
  thread.once("exit", (code) => (ended ||= `exited (${code})`))
  const ready = await new Promise((resolve, reject) => {
    channel.port1.once("message", resolve)
    thread.once("exit", () => reject(new Error(`the compiled decoder ${ended}`)))
  })
  expect(ready).toBe("ready")
}, 90_000)

afterAll(async () => {
  channel.port1.close()
  await decoder?.terminate()
})

/**
 * What the compiled decoder answers for `text` read with `name`, as JSON text. It waits for the answer
 * (a property runs thousands of bodies: a wait on shared memory, not a trip through this event loop each).
 */
const compiledDecode = (name: BodyName, text: string): string => {
  Atomics.store(answered, 0, 0)
  channel.port1.postMessage([name, text])
  if (Atomics.wait(answered, 0, 0, 10_000) === "timed-out") throw new Error(`the compiled decoder did not answer within 10 s ${ended}`)
  const answer = receiveMessageOnPort(channel.port1)
  if (typeof answer?.message !== "string") throw new Error(`the compiled decoder answered ${String(answer?.message)}`)
  return answer.message
}

const names = Object.keys(bodyReaders) as ReadonlyArray<BodyName>

/** A body, drawn for one of the readers, with the reader's name. */
const bodyFor = (bodies: (name: BodyName) => fc.Arbitrary<unknown>) =>
  fc.constantFrom(...names).chain((name) => bodies(name).map((body) => ({ name, body })))

/** The compiled reading of `body` is the interpreter's; `note` is told whether the interpreter read a model. */
const sameReading = (note: (readAModel: boolean) => void) => ({ name, body }: { readonly name: BodyName; readonly body: unknown }) => {
  const text = JSON.stringify(body)
  const interpreted = bodyReaders[name].read(JSON.parse(text))
  note(Result.isSuccess(interpreted))
  expect(compiledDecode(name, text)).toBe(oneLine(interpreted))
}

// The runs were 150 good and 400 broken bodies for each of the six readers.
law("compiled reading = interpreted reading: good bodies", { of: "bodies read as a model", floor: 0.9 }, 900, (note) =>
  fc.property(bodyFor((name) => goodBodies[name]), sameReading(note)))

law("compiled reading = interpreted reading: bodies with one defect", { of: "bodies refused", floor: 0.3 }, 2_400, (note) =>
  fc.property(bodyFor((name) => brokenBodies(goodBodies[name])), sameReading((readAModel) => note(!readAModel))))

describe("a body read by the compiled parser", () => {
  it("answers an unknown field of a body with the interpreter's words", () => {
    expect(JSON.parse(compiledDecode("B send_values", `{"select":{"id":"setter:x"},"value":{"OnOff":"On"},"extra":1}`))).toMatchObject({
      _tag: "Failure",
      failure: { reason: expect.stringContaining(`unknown field "extra"`) }
    })
  })
})
