import { afterAll, beforeAll, expect } from "vitest"
import { watchHome } from "../http/watch/watchHome.ts"
import { type GatewayOverHttp, startGateway } from "./gatewayOverHttp.ts"
import { runGateway } from "./spawnGateway.ts"

/**
 * A gateway on the watch tests' home for the whole file, and the command line on its data folder while
 * it runs: `cli(...args)` runs `gateway …args --data <its folder>`, which must succeed, and answers what
 * it printed.
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
  const cli = async (...args: ReadonlyArray<string>) => {
    const exited = await runGateway([...args, "--data", running().dataDir])
    expect({ args, code: exited.code, stderr: exited.stderr }).toEqual({ args, code: 0, stderr: "" })
    return exited.stdout
  }
  return { gateway: running, cli }
}
