import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, writeFileSync } from "node:fs"
import { createConnection, createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

/**
 * Debian's mosquitto as a real outside broker: started on a free loopback port with its own
 * configuration (no system service), persisting retained messages across its own restarts, and
 * stopped by pid. `.ci/run` installs it.
 */

export interface Mosquitto {
  readonly url: string
  readonly port: number
  /** Stops the broker (SIGTERM, so it saves retained messages); the port stays reserved for `start`. */
  readonly stop: () => Promise<void>
  /** Starts it again on the same port. */
  readonly start: () => Promise<void>
}

/** Debian installs it in /usr/sbin, which a non-root PATH may lack. */
const mosquittoBin = existsSync("/usr/sbin/mosquitto") ? "/usr/sbin/mosquitto" : "mosquitto"

const live = new Set<ChildProcess>()
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL")
})

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" })
    socket.once("connect", () => (socket.destroy(), resolve(true)))
    socket.once("error", () => resolve(false))
  })

export const startMosquitto = async (): Promise<Mosquitto> => {
  const dir = mkdtempSync(join(process.env["GATEWAY_TEST_ROOT"] ?? tmpdir(), "mosquitto-"))
  const port = await freePort()
  const config = join(dir, "mosquitto.conf")
  writeFileSync(
    config,
    [`listener ${port} 127.0.0.1`, "allow_anonymous true", "persistence true", `persistence_location ${dir}/`, "log_dest none", ""].join("\n")
  )
  let child: ChildProcess | undefined
  const start = async () => {
    const process = spawn(mosquittoBin, ["-c", config], { stdio: "ignore" })
    live.add(process)
    const exited = new Promise<void>((resolve) => process.once("exit", () => (live.delete(process), resolve())))
    child = process
    for (let attempt = 0; attempt < 200; attempt++) {
      if (await accepts(port)) return
      if (process.exitCode !== null) break
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    process.kill("SIGKILL")
    await exited
    throw new Error(`mosquitto did not start on port ${port}`)
  }
  const stop = async () => {
    const running = child
    child = undefined
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return
    await new Promise<void>((resolve) => {
      running.once("exit", () => resolve())
      running.kill("SIGTERM")
    })
  }
  await start()
  return { url: `mqtt://127.0.0.1:${port}`, port, stop, start }
}
