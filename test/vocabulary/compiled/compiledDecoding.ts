// Before any schema is made: this process decodes as the gateway does, with the schemas compiled.
import "effect/schema/SchemaJITCompiler/enable"
import { createInterface } from "node:readline"
import { type BodyName, bodyReaders, oneLine } from "./bodyReaders.ts"

/**
 * Run by compiledDecoding.property.test.ts in a process of its own (Node reads the TypeScript): each line
 * of stdin is `[shape name, JSON text]`, answered by a line holding what its reader gives, as JSON (`oneLine`).
 * Its first line says it is ready.
 */
process.stdout.write("ready\n")
for await (const line of createInterface({ input: process.stdin })) {
  const [name, text] = JSON.parse(line) as [BodyName, string]
  process.stdout.write(`${oneLine(bodyReaders[name].read(JSON.parse(text)))}\n`)
}
