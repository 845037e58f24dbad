#!/usr/bin/env node
import { runsOn, tooOldNode } from "./NodeVersion.ts"

// On an older Node, loading the gateway crashes the process without a word (better-sqlite3's binary
// exits 139), so the version is checked before anything else is imported.
if (runsOn(process.versions.node)) await import("./Launch.ts")
else {
  process.stderr.write(`${tooOldNode(process.versions.node, process.execPath)}\n`)
  process.exitCode = 1
}
