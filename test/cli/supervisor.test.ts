import { readFileSync } from "node:fs"
import { connect } from "node:net"
import { constants } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { eventuallyAsync } from "../support/eventually.ts"
import { freshDataDir } from "../support/gatewayTestLayer.ts"
import { send } from "../support/httpRequest.ts"
import { type Launcher, spawnGateway } from "../support/spawnGateway.ts"

/**
 * A supervisor stops the gateway with a signal to the one process it started (docs/running.md): npm,
 * for `npm start`; the pinned Node itself, for the systemd unit docs/gateway.service.
 */

const root = join(import.meta.dirname, "..", "..")

/** Sends `signal` to the process group `leader` leads; whether a process of it was still there. */
const signalGroup = (leader: number, signal: NodeJS.Signals | 0): boolean => {
  try {
    process.kill(-leader, signal)
    return true
  } catch {
    return false
  }
}

const isSignal = (name: string): name is NodeJS.Signals => name in constants.signals

/** Whether something accepts connections at `baseUrl`'s port. */
const accepts = (baseUrl: string): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(Number(new URL(baseUrl).port), "127.0.0.1")
    socket.once("connect", () => (socket.destroy(), resolve(true)))
    socket.once("error", () => resolve(false))
  })

describe("npm start", () => {
  it("stops, gateway and all, when npm alone is sent SIGTERM", async () => {
    const gateway = await spawnGateway(["--port", "0", "--no-clock", "--data", freshDataDir()], 30_000, {}, ["npm", "start", "--"])
    try {
      expect((await send(`${gateway.baseUrl}/health`)).status).toBe(200)
      process.kill(gateway.pid, "SIGTERM")
      // npm, its shell if any and the gateway are the group: all of them end.
      expect(await eventuallyAsync(() => Promise.resolve(signalGroup(gateway.pid, 0)), (runs) => !runs)).toBe(false)
      expect(await accepts(gateway.baseUrl)).toBe(false)
    } finally {
      // What npm left behind, if it did (the group outlives its leader: spawnGateway's stop would not reach it).
      signalGroup(gateway.pid, "SIGKILL")
    }
  })
})

describe("docs/gateway.service", () => {
  const unit = readFileSync(join(root, "docs", "gateway.service"), "utf8")
  const setting = (name: string) => new RegExp(`^${name}=(.*)$`, "m").exec(unit)?.[1] ?? ""

  it("runs the project's Node on the built CLI, with no npm or shell in between, and stops it with SIGTERM", () => {
    const [command, ...args] = setting("ExecStart").split(" ")
    expect({ command, cli: args[0], serve: args[1] }).toEqual({
      command: "/opt/home-gateway/node_modules/.bin/node",
      cli: "/opt/home-gateway/dist/gateway.js",
      serve: "serve"
    })
    expect(setting("KillSignal")).toBe("SIGTERM")
  })

  it("its command, run as written here, serves, and stops cleanly (exit code 0) on its KillSignal", async () => {
    const dataDir = freshDataDir()
    const commandLine = setting("ExecStart")
      .replaceAll("/opt/home-gateway", root)
      .replaceAll("/var/lib/gateway", dataDir)
      .replace(/--port \d+/, "--port 0")
    const [command = "", ...args] = commandLine.split(" ")
    const launcher: Launcher = [command, ...args]
    const signal = setting("KillSignal")
    if (!isSignal(signal)) throw new Error(`KillSignal=${signal} is no signal`)
    const gateway = await spawnGateway([], 15_000, {}, launcher)
    const stopped = await gateway.stop(signal)
    expect({ code: stopped.code, signal: stopped.signal }).toEqual({ code: 0, signal: null })
    expect(await accepts(gateway.baseUrl)).toBe(false)
  })
})
