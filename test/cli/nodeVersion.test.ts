import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"
import { delimiter, join } from "node:path"
import { describe, expect, it } from "vitest"
import { oldestNode, runsOn } from "../../src/cli/NodeVersion.ts"
import { freshDataDir } from "../support/gatewayTestLayer.ts"
import { gatewayBin, runGateway } from "../support/spawnGateway.ts"

/**
 * Started on a Node older than it needs, the gateway says so in one line and how to run it, instead of
 * crashing without a word when better-sqlite3 loads (docs/running.md).
 */

/** A `node` on the PATH (the machine's own, not the project's) older than the gateway needs, if there is one. */
const olderNode = (): string | undefined =>
  (process.env["PATH"] ?? "").split(delimiter)
    .filter((dir) => dir !== "" && !dir.includes("node_modules"))
    .map((dir) => join(dir, "node"))
    .filter((node) => existsSync(node))
    .find((node) => !runsOn(execFileSync(node, ["-p", "process.versions.node"], { encoding: "utf8" }).trim()))

describe("the Node version", () => {
  it("is package.json's engines.node", async () => {
    const { default: pkg } = await import("../../package.json", { with: { type: "json" } })
    expect(pkg.engines.node).toBe(`>=${oldestNode.major}.${oldestNode.minor}`)
  })

  it.each([
    ["20.20.2", false],
    ["22.18.9", false],
    ["22.19.0", true],
    ["22.100.0", true],
    ["23.0.0", true],
    ["24.21.0", true],
    ["100.1.0", true]
  ])("Node %s: runs %s", (version, runs) => {
    expect(runsOn(version)).toBe(runs)
  })

  const node = olderNode()
  it.skipIf(node === undefined)("on an older Node, serve says in one line on stderr what it needs and how to run it, exit code 1", async () => {
    const exited = await runGateway(["serve", "--port", "0", "--data", freshDataDir()], 10_000, {}, [node ?? "", gatewayBin])
    const version = execFileSync(node ?? "", ["-p", "process.versions.node"], { encoding: "utf8" }).trim()
    expect(exited).toEqual({
      code: 1,
      signal: null,
      stdout: "",
      stderr: `gateway: needs Node ${oldestNode.major}.${oldestNode.minor} or newer, and ${node} is Node ${version}; ` +
        "run it with `npm start` or `npx gateway …`, which use the Node that comes with the project (node_modules/.bin/node)\n"
    })
  })
})
