import { afterAll, beforeAll, expect } from "vitest"
import { watchHome } from "../http/watch/watchHome.ts"
import { type GatewayOverHttp, startGateway } from "./gatewayOverHttp.ts"
import { runGatewayInProcess } from "./gatewayCli.ts"
import { type Exited, runGateway } from "./spawnGateway.ts"

/**
 * A gateway on the watch tests' home for the whole file, and the command line on its data folder while
 * it runs: `cli(...args)` runs `gateway …args --data <its folder>` in this process, on a database
 * connection of its own as a process beside the server would (hashing passwords at the test
 * cost), which must succeed, and answers what it printed; `cliProcess(...args)` runs it as a process of its own, for a test that the other process is
 * heard.
 */
export const watchedGatewayWithCli = () => {
  let gateway: GatewayOverHttp | undefined
  beforeAll(async () => {
    gateway = await startGateway(watchHome)
  })
  afterAll(() => gateway?.close())
  const running = (): GatewayOverHttp => {
    if (gateway === undefined) throw new Error("the gateway did not start")
    return gateway
  }
  const succeeded = (args: ReadonlyArray<string>, exited: Exited) => {
    expect({ args, code: exited.code, stderr: exited.stderr }).toEqual({ args, code: 0, stderr: "" })
    return exited.stdout
  }
  const cli = async (...args: ReadonlyArray<string>) => succeeded(args, await runGatewayInProcess([...args, "--data", running().dataDir]))
  const cliProcess = async (...args: ReadonlyArray<string>) => succeeded(args, await runGateway([...args, "--data", running().dataDir]))
  return { gateway: running, cli, cliProcess }
}
