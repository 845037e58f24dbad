#!/usr/bin/env node
import * as nodeModule from "node:module"
import { fileURLToPath } from "node:url"
import { runsOn, tooOldNode } from "./NodeVersion.ts"

// On an older Node, loading the gateway crashes the process without a word (better-sqlite3's binary
// exits 139), so the version is checked before anything else is imported.
if (runsOn(process.versions.node)) {
  // V8's compiled code of the gateway's modules, kept beside them (not in a /tmp other users share; imported as a namespace, so that an older Node, which lacks it, still reaches the message below):
  // a command's start-up no longer compiles them again (a fifth of `gateway --version`'s CPU, measured).
  // Where that folder is not writable, Node goes on without it.
  nodeModule.enableCompileCache(fileURLToPath(new URL("./.compile-cache", import.meta.url)))
  await import("./Launch.ts")
} else {
  process.stderr.write(`${tooOldNode(process.versions.node, process.execPath)}\n`)
  process.exitCode = 1
}
