import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir, userInfo } from "node:os"
import { join } from "node:path"
import { onFreePort } from "./freePort.ts"
import { mosquitto, mosquittoPasswd, openssl, requireProgram } from "./requiredProgram.ts"
import { noteSpawned } from "./spawnedProcesses.ts"

/**
 * Debian's mosquitto as a real outside broker: started on a free loopback port with its own
 * configuration (no system service), persisting retained messages across its own restarts, and
 * stopped by pid. `.ci/run` installs it; where it (or openssl, for TLS) is missing, a start fails saying so.
 */

export interface MosquittoOptions {
  /** Logins it accepts; with none, anyone may connect. */
  readonly users?: Readonly<Record<string, string>>
  /** Serve MQTT over TLS (`mqtts://`) with a certificate of a CA made for the test. */
  readonly tls?: boolean
  /** Whether it tells `subscriptions` of every SUBSCRIBE and UNSUBSCRIBE it receives (its own log). */
  readonly logSubscriptions?: boolean
  /**
   * Whether it keeps QoS 0 messages too for a persistent session (`clean: false`) while its client is
   * away (`queue_qos0_messages`), as it keeps QoS 1 and 2: such a client then misses nothing published to
   * its subscriptions, even while the broker restarts (sessions persist with retained messages).
   */
  readonly queueQos0ForAbsentSessions?: boolean
}

export interface Mosquitto {
  /** `mqtt://127.0.0.1:PORT`, or `mqtts://…` with TLS. */
  readonly url: string
  /** With TLS: the PEM file of the CA that signed the broker's certificate. */
  readonly caFile: string | undefined
  readonly port: number
  /** Stops the broker (SIGTERM, so it saves retained messages). */
  readonly stop: () => Promise<void>
  /** Starts it again on the same port. */
  readonly start: () => Promise<void>
  /** With `logSubscriptions`: each (un)subscription, as it is received. */
  readonly subscriptions: Queue<Subscription>
}

/** A client's SUBSCRIBE or UNSUBSCRIBE of one topic filter, as mosquitto logs it. */
export interface Subscription {
  readonly subscribed: boolean
  readonly client: string
  readonly topic: string
}

/** Items as they come, for a test to wait for the next one. */
export interface Queue<A> {
  readonly next: () => Promise<A>
}

const queue = <A>(): Queue<A> & { readonly push: (a: A) => void } => {
  const items: Array<A> = []
  const waiting: Array<(a: A) => void> = []
  return {
    push: (a) => {
      const wake = waiting.shift()
      if (wake === undefined) items.push(a)
      else wake(a)
    },
    next: () => {
      const item = items.shift()
      return item !== undefined ? Promise.resolve(item) : new Promise((resolve) => waiting.push(resolve))
    }
  }
}

/** `<time>: <client> <qos> <topic>` for a SUBSCRIBE, `<time>: <client> <topic>` for an UNSUBSCRIBE. */
const subscriptionLine = /^\d+: (\S+) (?:([012]) )?(\S+)$/

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

const live = new Set<ChildProcess>()
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL")
})

/**
 * Starts mosquitto with `config` and resolves once it says it is running, so that the process on the
 * port is this broker and not another that took the port meanwhile; fails with its log if it exits first.
 */
const run = (config: string, port: number, afterRunning: (line: string) => void): Promise<ChildProcess> => {
  const child = spawn(requireProgram(mosquitto), ["-c", config], { stdio: ["ignore", "ignore", "pipe"] })
  live.add(child)
  noteSpawned(child, false)
  child.once("exit", () => live.delete(child))
  let log = ""
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (child.kill("SIGKILL"), reject(new Error(`mosquitto did not start on port ${port}: ${log}`))), 10_000)
    let running = false
    let partial = ""
    // Read on after the "running" line (a full pipe would stall the broker), each line to `afterRunning`.
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      if (running) {
        const lines = (partial + chunk).split("\n")
        partial = lines.pop() ?? ""
        for (const line of lines) afterRunning(line)
        return
      }
      log += chunk
      if (/ running$/m.test(log)) {
        running = true
        clearTimeout(timer)
        resolve(child)
      }
    })
    child.once("exit", () => (clearTimeout(timer), reject(new Error(`mosquitto exited before running on port ${port}: ${log}`))))
  })
}

export const startMosquitto = async (options: MosquittoOptions = {}): Promise<Mosquitto> => {
  requireProgram(mosquitto)
  if (options.users !== undefined) requireProgram(mosquittoPasswd)
  if (options.tls === true) requireProgram(openssl)
  const dir = mkdtempSync(join(process.env["GATEWAY_TEST_ROOT"] ?? tmpdir(), "mosquitto-"))
  const config = join(dir, "mosquitto.conf")
  // Run as the test's user: as root, mosquitto would switch to its own user, who cannot read this folder.
  // It logs to stderr only what says whether it runs: errors and information (its "running" line).
  const lines = [`user ${userInfo().username}`, "persistence true", `persistence_location ${dir}/`, "log_dest stderr", "log_type error", "log_type information"]
  if (options.logSubscriptions === true) lines.push("log_type subscribe", "log_type unsubscribe")
  if (options.queueQos0ForAbsentSessions === true) lines.push("queue_qos0_messages true")
  const users = Object.entries(options.users ?? {})
  if (users.length === 0) lines.push("allow_anonymous true")
  else {
    const passwords = join(dir, "passwords")
    for (const [i, [user, password]] of users.entries()) {
      execFileSync(requireProgram(mosquittoPasswd), [...(i === 0 ? ["-c"] : []), "-b", passwords, user, password], { stdio: "ignore" })
    }
    lines.push("allow_anonymous false", `password_file ${passwords}`)
  }
  const certificates = options.tls === true ? makeCertificates(dir) : undefined
  if (certificates !== undefined) lines.push(`cafile ${certificates.ca}`, `certfile ${certificates.cert}`, `keyfile ${certificates.key}`)
  const configure = (port: number) => writeFileSync(config, [`listener ${port} 127.0.0.1`, ...lines, ""].join("\n"))

  // mosquitto cannot be asked for port 0 and say which it took.
  let port = 0
  const subscriptions = queue<Subscription>()
  const logged = (line: string) => {
    const match = subscriptionLine.exec(line)
    if (match === null) return
    const [, client = "", qos, topic = ""] = match
    subscriptions.push({ subscribed: qos !== undefined, client, topic })
  }
  let child: ChildProcess | undefined = await onFreePort((free) => (port = free, configure(free), run(config, free, logged)))
  const start = async () => {
    child = await run(config, port, logged)
  }
  const stop = async () => {
    const running: ChildProcess | undefined = child
    child = undefined
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return
    await new Promise<void>((resolve) => {
      running.once("exit", () => resolve())
      running.kill("SIGTERM")
    })
  }
  return { url: `${certificates === undefined ? "mqtt" : "mqtts"}://127.0.0.1:${port}`, caFile: certificates?.ca, port, stop, start, subscriptions }
}
