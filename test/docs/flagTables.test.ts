import { readFileSync } from "node:fs"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { runGatewayInProcess } from "../support/gatewayCli.ts"

/**
 * The flags tables of the README and docs/configuration.md list exactly the flags `gateway serve --help`
 * lists, Effect's global ones included: a flag added to src/GatewayFlags.ts, or one Effect adds, is
 * documented or this fails. The help is the bin's program run in this process (gatewayCli.ts): the same text;
 * `--help` runs as a process in test/cli/serve.test.ts.
 */
const root = join(import.meta.dirname, "..", "..")

/** The long flags the help lists, one per line of its FLAGS and GLOBAL FLAGS sections (`  --port N  …`). */
const helpFlags = (help: string): ReadonlyArray<string> =>
  [...help.matchAll(/^ {2}(--[a-z][a-z0-9-]*)/gm)].map((match) => match[1] ?? "").sort()

/** The long flags named in the first cell of each row of a document's `| flag | default | meaning |` table. */
const tableFlags = (markdown: string): ReadonlyArray<string> => {
  const lines = markdown.split("\n")
  const header = lines.indexOf("| flag | default | meaning |")
  if (header === -1) return []
  const rows = lines.slice(header + 2)
  const end = rows.findIndex((line) => !line.startsWith("|"))
  const flags = rows.slice(0, end === -1 ? rows.length : end).flatMap((row) =>
    [...(row.split("|")[1] ?? "").matchAll(/`(--[a-z][a-z0-9-]*)/g)].map((match) => match[1] ?? "")
  )
  return [...new Set(flags)].sort()
}

describe("the flags tables", () => {
  let listed: ReadonlyArray<string> = []

  beforeAll(async () => {
    const exited = await runGatewayInProcess(["serve", "--help"])
    expect(exited.code).toBe(0)
    listed = helpFlags(exited.stdout)
  })

  it("reads the help's flags, global ones included", () => {
    expect(listed).toEqual(expect.arrayContaining(["--port", "--mqtt-ca", "--deprecate-vocabulary-a", "--help", "--log-level", "--completions"]))
    expect(listed).not.toContain("--wizard")
  })

  it.each(["README.md", "docs/configuration.md"])("%s lists every flag of gateway serve --help, and no other", (document) => {
    expect(tableFlags(readFileSync(join(root, document), "utf8"))).toEqual(listed)
  })

  it("reads each flag of a row's first cell, and nothing of the other cells", () => {
    const table = [
      "| flag | default | meaning |",
      "|---|---|---|",
      "| `--mqtt-ca FILE`, `--mqtt-key FILE` | none | unlike `--port` |",
      "| global: `--help` (`-h`) | | |",
      "",
      "| `--after FILE` | | |"
    ].join("\n")
    expect(tableFlags(table)).toEqual(["--help", "--mqtt-ca", "--mqtt-key"])
  })
})
