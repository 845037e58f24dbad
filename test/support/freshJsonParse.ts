import { Worker } from "node:worker_threads"
import { type JsonTree, jsonTree } from "./jsonTree.ts"

/**
 * `JSON.parse` where no other text was ever parsed: in a worker of its own (an isolate of its own), used
 * once. V8 misreads an escaped object key after an earlier parse of a key of the same decoded length
 * (src/vocabulary/common/EscapedJson.ts), so a reading to compare with must come from a clean isolate.
 * A fresh `node:vm` context, a thousand times cheaper, is not clean enough: in one made by this process,
 * `{"\u0022":true,"\u005c":{…}}` read its first key as `"\\"` (tried), where a worker reads it right.
 */
export type FreshReading = { readonly tree: JsonTree } | { readonly error: string }

/**
 * The worker: one list of texts in, each read by `JSON.parse` in its order, their values (or the parser's
 * message) out by structured clone, which keeps own `__proto__` keys, `-0`, lone surrogates and key order.
 * Plain CommonJS evaluated, not a module file: it starts several times faster.
 */
const script = `
const { parentPort } = require("node:worker_threads")
parentPort.once("message", (texts) => {
  parentPort.postMessage(texts.map((text) => {
    try { return { json: JSON.parse(text) } } catch (error) { return { error: error.message } }
  }))
  parentPort.close()
})`

type Answer = { readonly json: unknown } | { readonly error: string }

interface Started {
  readonly worker: Worker
  readonly online: Promise<void>
}

const start = (): Started => {
  const worker = new Worker(script, { eval: true, stdout: true, stderr: true })
  return { worker, online: new Promise((resolve, reject) => worker.once("online", resolve).once("error", reject)) }
}

const readIn = async ({ worker, online }: Started, texts: ReadonlyArray<string>): Promise<ReadonlyArray<FreshReading>> => {
  await online
  const answer = new Promise<ReadonlyArray<Answer>>((resolve, reject) => {
    worker.once("message", resolve).once("error", reject)
  })
  worker.postMessage(texts)
  try {
    return (await answer).map((read) => ("json" in read ? { tree: jsonTree(read.json) } : read))
  } finally {
    await worker.terminate()
  }
}

/** `texts` read in their order by one fresh worker: the later ones after the earlier ones, and nothing else. */
export const parseInFreshWorker = (texts: ReadonlyArray<string>): Promise<ReadonlyArray<FreshReading>> =>
  readIn(start(), texts)

/**
 * Fresh workers for one text each, started `ahead` at a time, so that a worker's start overlaps the
 * checks of the texts before it. `close` stops the workers started and not used.
 */
export const freshParsers = (ahead: number) => {
  const ready: Array<Started> = Array.from({ length: ahead }, start)
  return {
    parse: async (text: string): Promise<FreshReading> => {
      ready.push(start())
      const [reading] = await readIn(ready.shift() ?? start(), [text])
      if (reading === undefined) throw new Error("the worker answered nothing")
      return reading
    },
    close: () => Promise.all(ready.splice(0).map(({ worker }) => worker.terminate()))
  }
}
