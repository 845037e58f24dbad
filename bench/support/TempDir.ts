import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"

/** A fresh folder under the system's temp folder, removed with everything in it when the scope closes. */
export const tempDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "gateway-bench-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)
