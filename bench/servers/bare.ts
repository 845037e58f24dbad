import { readFileSync } from "node:fs"
import { parseArgs } from "node:util"
import { bareServer, listenOnLoopback } from "../http/BareServer.ts"

/**
 * The bare `node:http` ceiling in a process of its own: `node bare.js [--answer FILE] [--home FILE]`.
 * Answers every request with the bytes of `--answer` (the gateway's own answer, fetched once by the
 * benchmark; `{"status":"ok"}` without it). With `--home` it also reads and parses that home file and
 * keeps it: the least any server of that home must do, the baseline of start-up time and memory.
 */
const { values } = parseArgs({ options: { answer: { type: "string" }, home: { type: "string" } } })

/** Kept for the life of the process, as a server keeps its home. */
export const home: unknown = values.home === undefined ? undefined : JSON.parse(readFileSync(values.home, "utf8"))

listenOnLoopback(bareServer(values.answer === undefined ? `{"status":"ok"}` : readFileSync(values.answer)))
