// Before any schema is made: this thread decodes as the gateway does, with the schemas compiled.
import "effect/schema/SchemaJITCompiler/enable"
import { type MessagePort, workerData } from "node:worker_threads"
import { type BodyName, bodyReaders, oneLine } from "./bodyReaders.ts"

/**
 * Run by compiledDecoding.laws.test.ts in a worker thread of its own (Node reads the TypeScript; the
 * thread's modules are its own, so the compiler is on for them alone): each message on `port` is
 * `[shape name, JSON text]`, answered on the same port by what its reader gives, as JSON (`oneLine`),
 * after which `answered` is set and notified, so that the test can wait for it without an event loop.
 * Its first message says it is ready.
 */
const { port, answered } = workerData as { readonly port: MessagePort; readonly answered: Int32Array }
port.on("message", ([name, text]: [BodyName, string]) => {
  port.postMessage(oneLine(bodyReaders[name].read(JSON.parse(text))))
  Atomics.store(answered, 0, 1)
  Atomics.notify(answered, 0)
})
port.postMessage("ready")
