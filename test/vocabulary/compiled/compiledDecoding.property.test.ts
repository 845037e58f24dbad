import { join } from "node:path"
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads"
import * as fc from "fast-check"
import * as Result from "effect/Result"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as A from "../../../src/vocabulary/a/index.ts"
import * as B from "../../../src/vocabulary/b/index.ts"
import { ValueInputJson, ValueJson } from "../../../src/vocabulary/common/ValueJson.ts"
import { encode } from "../../../src/vocabulary/common/WireIssue.ts"
import { getterSelector, sendTarget, value } from "../../arbitraries/domain.ts"
import { compileCacheEnv } from "../../support/compileCache.ts"
import { type BodyName, bodyReaders, oneLine } from "./bodyReaders.ts"

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

/** The JSON `shape` writes for each model value it can write (A's partial shapes cannot write them all). */
const written = <T, W>(shape: { readonly write: (value: T) => W | Result.Result<W, string> }, model: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  model.map((x) => encode(shape, x)).filter(Result.isSuccess).map((json) => json.success)

const goodBodies: Record<BodyName, fc.Arbitrary<unknown>> = {
  "B fetch_values": written(B.GetterSelectorsJson, fc.array(getterSelector(), { maxLength: 3 })),
  "B send_values": written(B.SendBodyJson, fc.array(sendTarget(), { maxLength: 2 })),
  "A get_channel_value": written(A.GetSelectorsJson, fc.array(getterSelector(), { maxLength: 3 })),
  "A put_channel_value": written(A.PutValueBodyJson, fc.array(sendTarget(), { minLength: 1, maxLength: 1 })),
  Value: written(ValueJson, value),
  ValueInput: written(ValueInputJson, value)
}

/** Keys a defect may add: the shapes' own (in the wrong place, or twice over a union's forms), and others. */
const someKey = fc.oneof(
  fc.constantFrom("id", "select", "set", "value", "tags", "kind", "service", "service_tags", "Exactly", "OnOff", "Json", "C", "F", "h", "data"),
  fc.string({ maxLength: 6 })
)

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

/** Every place in `json`, as the path to it. */
const placesIn = (json: Json, path: ReadonlyArray<string | number> = []): Array<ReadonlyArray<string | number>> => {
  if (json === null || typeof json !== "object") return [path]
  const inner = Array.isArray(json)
    ? json.flatMap((item, index) => placesIn(item, [...path, index]))
    : Object.entries(json).flatMap(([key, item]) => placesIn(item, [...path, key]))
  return [path, ...inner]
}

/** `json` with the part at `path` changed by `change` (a copy; the rest shared). */
const changedAt = (json: Json, path: ReadonlyArray<string | number>, change: (part: Json) => Json): Json => {
  const [first, ...rest] = path
  if (first === undefined) return change(json)
  if (Array.isArray(json)) return json.map((item, index) => (index === first ? changedAt(item, rest, change) : item))
  if (json !== null && typeof json === "object") {
    return Object.fromEntries(Object.entries(json).map(([key, item]) => [key, key === first ? changedAt(item, rest, change) : item]))
  }
  return json
}

type Defect =
  | { readonly _tag: "replaced"; readonly by: Json }
  | { readonly _tag: "added"; readonly key: string; readonly by: Json }
  | { readonly _tag: "removed"; readonly at: number }

const defect: fc.Arbitrary<Defect> = fc.oneof(
  fc.record({ _tag: fc.constant("replaced" as const), by: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json> }),
  fc.record({ _tag: fc.constant("added" as const), key: someKey, by: fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json> }),
  fc.record({ _tag: fc.constant("removed" as const), at: fc.nat() })
)

/** The part with the defect: replaced, or (an object or array) with an entry added or removed. */
const withDefect = (part: Json, d: Defect): Json => {
  if (d._tag === "replaced") return d.by
  if (part === null || typeof part !== "object") return part
  if (Array.isArray(part)) {
    return d._tag === "added" ? [...part, d.by] : part.filter((_, index) => index !== d.at % Math.max(part.length, 1))
  }
  const entries = Object.entries(part)
  return d._tag === "added"
    ? { ...part, [d.key]: d.by }
    : Object.fromEntries(entries.filter((_, index) => index !== d.at % Math.max(entries.length, 1)))
}

/** A good body with one defect at a place drawn among all of its places. */
const brokenBodies = (good: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc.tuple(good, fc.nat(), defect).map(([json, at, d]) => {
    const body = json as Json
    const places = placesIn(body)
    const place = places[at % places.length] ?? []
    return changedAt(body, place, (part) => withDefect(part, d))
  })

const sameReading = (name: BodyName) => (body: unknown) => {
  const text = JSON.stringify(body)
  const interpreted = oneLine(bodyReaders[name](JSON.parse(text)))
  expect(compiledDecode(name, text)).toBe(interpreted)
}

describe("a body read by the compiled parser", () => {
  for (const name of Object.keys(bodyReaders) as Array<BodyName>) {
    it(`reads a good ${name} body as the interpreter does`, () => {
      fc.assert(fc.property(goodBodies[name], sameReading(name)), { numRuns: 150 })
    })

    it(`reads a ${name} body with one defect as the interpreter does: the same model, or the same message`, () => {
      fc.assert(fc.property(brokenBodies(goodBodies[name]), sameReading(name)), { numRuns: 400 })
    })
  }

  it("answers an unknown field of a body with the interpreter's words", () => {
    expect(JSON.parse(compiledDecode("B send_values", `{"select":{"id":"setter:x"},"value":{"OnOff":"On"},"extra":1}`))).toMatchObject({
      _tag: "Failure",
      failure: { reason: expect.stringContaining(`unknown field "extra"`) }
    })
  })
})
