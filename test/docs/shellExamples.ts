import { spawn } from "node:child_process"
import { curl, requireProgram } from "../support/requiredProgram.ts"
import { gatewayBin, nodeBin } from "../support/spawnGateway.ts"
import { noteSpawned } from "../support/spawnedProcesses.ts"

/**
 * The shell examples of a document, as a reader pastes them: each ```sh block holding a `curl …` or an
 * `npx gateway …` command (not `npx gateway translate`, run elsewhere), and each inline `curl …` of the
 * prose with a whole URL. Each assumes the gateway of the nearest `npm start [-- …]` before it, in a
 * ```sh block or in inline code (not `npx gateway serve`: npx does not pass a SIGTERM on to it).
 *
 * `runShellExample` runs one in bash with the real curl, on a running gateway: `$TOKEN` holds a token
 * of `admin` (a line `TOKEN=…` of the example is the reader's placeholder for it and is left out),
 * `http://127.0.0.1:3000` is the gateway's address, `npx gateway` is the built CLI, and the folder of
 * the serve command's `--data` (`./data` by default) is the gateway's database folder. An answer of 400 or more fails the example (curl `--fail-with-body`).
 */

/** What a serve command changes about the answers; the address (`--host`, `--port`) is replaced anyway. */
export interface AssumedGateway {
  readonly line: number
  /** `--home FILE` relative to the project's folder; `undefined`: the built-in demo home. */
  readonly home: string | undefined
  readonly clock: boolean
  /** `--data DIR` as written, relative to the project's folder (`data` by default). */
  readonly data: string
  /** Started with `--mqtt` or `--mqtt-broker`: its examples need a Zigbee2MQTT bridge. */
  readonly bridge: boolean
}

export interface ShellExample {
  readonly line: number
  readonly script: string
  readonly gateway: AssumedGateway
}

const fence = /^```(\S*)/
const serveMention = /(?:^|&&\s*)(?:\$ )?(npm start)(?=\s|$)(.*)$/
const inlineCode = /`([^`]+)`/g
const commandLine = /^(?:\$ )?(?:curl|npx gateway(?! translate\b))\s/
const inlineCurl = /^curl .*http:\/\/127\.0\.0\.1:3000\/\S*/

const assumedGateway = (command: string, flagsText: string, line: number): AssumedGateway => {
  const words = flagsText.replace(/\s+#.*$/, "").trim().split(/\s+/).filter((w) => w !== "")
  // `npm start -- FLAGS` hands FLAGS to `gateway serve`.
  const flags = command === "npm start" ? (words[0] === "--" ? words.slice(1) : []) : words
  let home: string | undefined
  let clock = true
  let bridge = false
  let data = "data"
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i] ?? ""
    if (flag === "--home") home = flags[++i]
    else if (flag === "--no-clock") clock = false
    else if (flag === "--host" || flag === "--port") i++
    else if (flag === "--data") data = (flags[++i] ?? "").replace(/^\.\//, "")
    else if (flag === "--mqtt" || /^--mqtt-(base-topic|username|password|password-file|ca|cert|key)$/.test(flag)) {
      bridge = true
      i++
    } else if (/^--mqtt-broker(=\d+)?$/.test(flag) || /^--mqtt-discovery(=\S+)?$/.test(flag)) bridge = true
    else throw new Error(`line ${line}: the shell examples runner does not know the flag ${flag}`)
  }
  return { line, home, clock, data, bridge }
}

export const shellExamples = (markdown: string): ReadonlyArray<ShellExample> => {
  const lines = markdown.split("\n")
  const examples: Array<ShellExample> = []
  let gateway: AssumedGateway | undefined
  const assumed = (line: number): AssumedGateway => {
    if (gateway === undefined) throw new Error(`line ${line}: a shell example must come after the command that starts the gateway it assumes`)
    return gateway
  }
  for (let i = 0; i < lines.length; i++) {
    const open = fence.exec(lines[i] ?? "")
    if (open === null) {
      for (const [, code = ""] of (lines[i] ?? "").matchAll(inlineCode)) {
        const serve = serveMention.exec(code)
        if (serve !== null) gateway = assumedGateway(serve[1] ?? "", serve[2] ?? "", i + 1)
        else if (inlineCurl.test(code)) examples.push({ line: i + 1, script: code, gateway: assumed(i + 1) })
      }
      continue
    }
    const start = i
    const body: Array<string> = []
    for (i++; i < lines.length && (lines[i] ?? "").trim() !== "```"; i++) body.push(lines[i] ?? "")
    if (open[1] !== "sh") continue
    let commands = false
    for (const [offset, text] of body.entries()) {
      const serve = serveMention.exec(text.trim())
      if (serve !== null) gateway = assumedGateway(serve[1] ?? "", serve[2] ?? "", start + 2 + offset)
      else if (commandLine.test(text.trim())) commands = true
    }
    if (commands) {
      const script = body.filter((l) => !/^TOKEN=/.test(l.trim())).join("\n")
      examples.push({ line: start + 1, script, gateway: assumed(start + 1) })
    }
  }
  return examples
}

export interface ShellRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

const prelude = [
  "set -e",
  `curl() { command curl --silent --show-error --fail-with-body "$@"; }`,
  `npx() { if [ "$1" = gateway ]; then shift; "$GATEWAY_NODE" "$GATEWAY_BIN" "$@"; else command npx "$@"; fi; }`
].join("\n")

/**
 * Runs `example` in bash in `cwd` (which should hold the gateway's database folder, as the example names it) against the
 * gateway at `baseUrl` (which stands for every `127.0.0.1:3000` of the script); killed, with everything
 * it started, after `timeoutMs`, or as soon as its output satisfies `enough` (for a command that runs
 * until stopped, such as a watch client).
 */
export const runShellExample = (
  example: Pick<ShellExample, "script">,
  target: { readonly baseUrl: string; readonly token: string; readonly cwd: string },
  timeoutMs = 15_000,
  enough: (stdout: string) => boolean = () => false
): Promise<ShellRun> =>
  new Promise((resolve, reject) => {
    requireProgram(curl)
    const script = `${prelude}\n${example.script.replaceAll("127.0.0.1:3000", new URL(target.baseUrl).host)}\n`
    const child = spawn("bash", ["-c", script], {
      cwd: target.cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, TOKEN: target.token, GATEWAY_NODE: nodeBin, GATEWAY_BIN: gatewayBin, NO_PROXY: "*", no_proxy: "*" }
    })
    noteSpawned(child, true)
    let stdout = ""
    let stderr = ""
    let stopped = false
    const stop = () => {
      if (stopped || child.pid === undefined) return
      stopped = true
      process.kill(-child.pid, "SIGKILL")
    }
    child.stdout.setEncoding("latin1").on("data", (chunk: string) => {
      stdout += chunk
      if (enough(stdout)) stop()
    })
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    const timer = setTimeout(stop, timeoutMs)
    child.once("error", (error) => (clearTimeout(timer), reject(error)))
    child.once("close", (code) => (clearTimeout(timer), resolve({ code, stdout, stderr })))
  })
