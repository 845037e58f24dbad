import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { existsSync, mkdtempSync, writeFileSync } from "node:fs"
import { createConnection } from "node:net"
import { tmpdir, userInfo } from "node:os"
import { join } from "node:path"
import { freePort } from "./freePort.ts"

/**
 * Debian's mosquitto as a real outside broker: started on a free loopback port with its own
 * configuration (no system service), persisting retained messages across its own restarts, and
 * stopped by pid. `.ci/run` installs it.
 */

export interface MosquittoOptions {
  /** Logins it accepts; with none, anyone may connect. */
  readonly users?: Readonly<Record<string, string>>
  /** Serve MQTT over TLS (`mqtts://`) with a certificate of a CA made for the test. */
  readonly tls?: boolean
}

export interface Mosquitto {
  /** `mqtt://127.0.0.1:PORT`, or `mqtts://…` with TLS. */
  readonly url: string
  /** With TLS: the PEM file of the CA that signed the broker's certificate. */
  readonly caFile: string | undefined
  readonly port: number
  /** Stops the broker (SIGTERM, so it saves retained messages); the port stays reserved for `start`. */
  readonly stop: () => Promise<void>
  /** Starts it again on the same port. */
  readonly start: () => Promise<void>
}

/** A CA and a certificate it signed for 127.0.0.1, made with openssl in `dir`. */
const makeCertificates = (dir: string) => {
  const file = (name: string) => join(dir, name)
  const openssl = (...args: ReadonlyArray<string>) => execFileSync("openssl", args, { stdio: "ignore" })
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
  openssl("req", "-x509", ...ec, "-keyout", file("ca.key"), "-out", file("ca.pem"), "-days", "1", "-subj", "/CN=gateway test CA")
  openssl("req", ...ec, "-keyout", file("server.key"), "-out", file("server.csr"), "-subj", "/CN=127.0.0.1")
  writeFileSync(file("server.ext"), "subjectAltName=IP:127.0.0.1\n")
  openssl(
    "x509", "-req", "-in", file("server.csr"), "-CA", file("ca.pem"), "-CAkey", file("ca.key"), "-CAcreateserial",
    "-out", file("server.pem"), "-days", "1", "-extfile", file("server.ext")
  )
  return { ca: file("ca.pem"), cert: file("server.pem"), key: file("server.key") }
}

/** Debian installs it in /usr/sbin, which a non-root PATH may lack. */
const mosquittoBin = existsSync("/usr/sbin/mosquitto") ? "/usr/sbin/mosquitto" : "mosquitto"

const live = new Set<ChildProcess>()
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL")
})


const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" })
    socket.once("connect", () => (socket.destroy(), resolve(true)))
    socket.once("error", () => resolve(false))
  })

export const startMosquitto = async (options: MosquittoOptions = {}): Promise<Mosquitto> => {
  const dir = mkdtempSync(join(process.env["GATEWAY_TEST_ROOT"] ?? tmpdir(), "mosquitto-"))
  const port = await freePort()
  const config = join(dir, "mosquitto.conf")
  // Run as the test's user: as root, mosquitto would switch to its own user, who cannot read this folder.
  const lines = [`listener ${port} 127.0.0.1`, `user ${userInfo().username}`, "persistence true", `persistence_location ${dir}/`, "log_dest none"]
  const users = Object.entries(options.users ?? {})
  if (users.length === 0) lines.push("allow_anonymous true")
  else {
    const passwords = join(dir, "passwords")
    for (const [i, [user, password]] of users.entries()) {
      execFileSync("mosquitto_passwd", [...(i === 0 ? ["-c"] : []), "-b", passwords, user, password], { stdio: "ignore" })
    }
    lines.push("allow_anonymous false", `password_file ${passwords}`)
  }
  const certificates = options.tls === true ? makeCertificates(dir) : undefined
  if (certificates !== undefined) lines.push(`cafile ${certificates.ca}`, `certfile ${certificates.cert}`, `keyfile ${certificates.key}`)
  writeFileSync(config, [...lines, ""].join("\n"))
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
  return { url: `${certificates === undefined ? "mqtt" : "mqtts"}://127.0.0.1:${port}`, caFile: certificates?.ca, port, stop, start }
}
