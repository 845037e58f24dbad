import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/**
 * Vitest global setup: one temporary folder for the whole run, under which tests make their data
 * folders (`freshDataDir`), removed when the run ends, so that runs do not pile folders up in /tmp.
 * Workers inherit the variable.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "gateway-test-run-"))
  process.env["GATEWAY_TEST_ROOT"] = root
  return () => rmSync(root, { recursive: true, force: true })
}
