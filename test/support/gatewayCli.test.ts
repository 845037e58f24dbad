import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { runGatewayInProcess } from "./gatewayCli.ts"
import { freshDataDir } from "./gatewayTestLayer.ts"
import { runGateway } from "./spawnGateway.ts"

/** The tests that run the command line in process see what the process shows. */
describe("a command line run in process", () => {
  it("ends with the exit code, stdout and stderr of the same command line run as a process", async () => {
    const dataDir = freshDataDir()
    expect((await runGatewayInProcess(["users", "add", "bob", "--email", "bob@example.org", "--data", dataDir])).code).toBe(0)
    const commandLines = [
      ["users", "list", "--data", dataDir], // 0, and a line of output
      ["tokens", "list", "--data", join(dataDir, "no-such-folder")], // 1, one line on stderr
      ["serve", "--port", "abc"] // 2, the usage error
    ]
    for (const args of commandLines) {
      const [inProcess, asProcess] = await Promise.all([runGatewayInProcess(args), runGateway(args)])
      expect({ args, ...inProcess }).toEqual({ args, ...asProcess })
    }
  })
})
