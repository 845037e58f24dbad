import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { existsSync, readFileSync } from "node:fs"
import BetterSqlite3 from "better-sqlite3"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { migrations } from "../../src/store/Migrations.ts"
import { builtDashboard } from "../support/dashboardOnDemoHome.ts"
import { freshDataDir } from "../support/gatewayTestLayer.ts"
import { runGatewayInProcess } from "../support/gatewayCli.ts"
import { type RunningGateway, runGateway, spawnGateway } from "../support/spawnGateway.ts"
import { onFreePort } from "../support/freePort.ts"
import { openWatch } from "../support/openWatch.ts"

let dataDir = ""

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "gateway-serve-"))
})

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true })
})

/**
 * One gateway for the tests that only read it: at --log-level debug for the tests of what it logs (each
 * looks for the lines of its own requests), and with PORT and HOST set to what no gateway could use, for
 * the test that the flags given win over them.
 */
let shared: RunningGateway | undefined
beforeAll(async () => {
  shared = await spawnGateway(["serve", "--port", "0", "--host", "127.0.0.1", "--data", freshDataDir(), "--no-clock", "--log-level", "debug"], 15_000, {
    PORT: "not a port",
    HOST: "nowhere.invalid"
  })
})
afterAll(() => shared?.stop())
const running = (): RunningGateway => {
  if (shared === undefined) throw new Error("the gateway did not start")
  return shared
}

describe("gateway serve", () => {
  it("prints one listening line with the bound port", () => {
    expect(running().baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(running().baseUrl).not.toMatch(/:0$/)
    expect(running().stdout().match(/listening on/g)).toHaveLength(1)
  })

  it("answers GET /health with 200 {\"status\":\"ok\"}", async () => {
    const response = await fetch(`${running().baseUrl}/health`)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("application/json")
    expect(await response.json()).toEqual({ status: "ok" })
  })

  it("serves the dashboard `npm run build` made, found beside the bundle, at /", async () => {
    // How it is served: test/http/dashboardServing.test.ts, on a gateway in the test's process.
    const page = await fetch(`${running().baseUrl}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(await page.text()).toBe(readFileSync(join(builtDashboard, "index.html"), "utf8"))
  })

  it("answers an unknown path with 404 and a JSON string", async () => {
    // Not the request log's `/nope`, whose own line that test waits for.
    const response = await fetch(`${running().baseUrl}/nowhere`)
    expect(response.status).toBe(404)
    expect(response.headers.get("content-type")).toBe("application/json")
    expect(typeof (await response.json())).toBe("string")
  })
})

/** The gateway stops on `signal` with code 0, its database closed, no request logged. */
const expectsCleanStop = async (gateway: RunningGateway, signal: NodeJS.Signals) => {
  expect(existsSync(join(dataDir, "gateway.db-wal"))).toBe(true)
  await fetch(`${gateway.baseUrl}/api/v1/services`)
  const exited = await gateway.stop(signal)
  expect(exited).toMatchObject({ code: 0, signal: null })
  // Logs (a first run's migration, say) go to stderr; a clean stop adds no error to them.
  expect(exited.stderr).not.toMatch(/error/i)
  // The request log is off by default (the request log's tests turn it on).
  expect(exited.stderr).not.toContain("/api/v1/services")
  // SQLite removes the write-ahead log when the last connection closes cleanly.
  expect(existsSync(join(dataDir, "gateway.db-wal"))).toBe(false)
}

describe("stopping", () => {
  // SIGINT stops the gateway of the PORT and HOST test below: a start of its own would check nothing more.
  it("exits with code 0 on SIGTERM, its database closed, no request logged", async () => {
    await expectsCleanStop(await spawnGateway(["serve", "--port", "0", "--data", dataDir]), "SIGTERM")
  })
})

describe("the request log", () => {
  // A request's line is written once it is answered: waited for, not timed.
  it("at --log-level debug, logs method, path (no query), status, duration and vocabulary of each request", async () => {
    const gateway = running()
    const token = gateway.token ?? ""
    await fetch(`${gateway.baseUrl}/api/v1/services?auth=${token}`)
    await fetch(`${gateway.baseUrl}/api/v1/nodes`, { method: "DELETE" })
    await fetch(`${gateway.baseUrl}/nope`)
    await expect.poll(gateway.stderr).toMatch(/DEBUG .*: GET \/api\/v1\/services 200 \d+\.\d\d ms vocabulary B$/m)
    await expect.poll(gateway.stderr).toMatch(/DEBUG .*: DELETE \/api\/v1\/nodes 405 \d+\.\d\d ms vocabulary A$/m)
    await expect.poll(gateway.stderr).toMatch(/DEBUG .*: GET \/nope 404 \d+\.\d\d ms no vocabulary$/m)
    expect(token).not.toBe("")
    expect(gateway.stderr()).not.toContain(token)
  })

  it("logs a watch session when it ends, as the 101 it was answered, in the vocabulary it spoke", async () => {
    const gateway = running()
    const target = { baseUrl: gateway.baseUrl, token: gateway.token ?? "" }
    // B, told by the first frame's shape; A, by `?vocabulary=a`. Each waits for the server's answer before closing.
    const b = await openWatch(target)
    b.send([{ select: { id: "getter:hall-light-on@sim" } }])
    await b.next()
    await b.close()
    const a = await openWatch(target, "vocabulary=a")
    a.send([{ source: { id: { Exactly: "getter:hall-light-on@sim" } }, should_watch_topology: true }])
    await a.next()
    await a.close()
    await expect.poll(gateway.stderr).toMatch(/DEBUG .*: GET \/api\/v1\/channels\/watch 101 \d+\.\d\d ms vocabulary B$/m)
    await expect.poll(gateway.stderr).toMatch(/DEBUG .*: GET \/api\/v1\/channels\/watch 101 \d+\.\d\d ms vocabulary A$/m)
  })
})

describe("PORT and HOST environment variables", () => {
  it("stand in for --port and --host when the flags are absent; SIGINT stops that gateway cleanly", async () => {
    let port = 0
    // 127.0.0.2, a loopback address that is not the default: `localhost` is ::1 first where /etc/hosts
    // says so (a stock Debian's does), and the test would not know where the gateway listens.
    const gateway = await onFreePort((free) => (port = free, spawnGateway(["serve", "--data", dataDir], 15_000, { PORT: String(free), HOST: "127.0.0.2" })))
    try {
      expect(gateway.baseUrl).toBe(`http://127.0.0.2:${port}`)
      expect((await fetch(`http://127.0.0.2:${port}/ping`)).status).toBe(204)
      // And SIGINT stops it as SIGTERM does (the stopping test above): a start spared.
      await expectsCleanStop(gateway, "SIGINT")
    } finally {
      await gateway.stop("SIGKILL", 1_000)
    }
  })

  it("give way to the flags", () => {
    // The shared gateway, started with the flags and with PORT and HOST that it could not use.
    expect(running().baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it("a PORT that is no port is a bad command line: exit code 2, naming the flag it stands for", async () => {
    // One as a process, which reads its environment; one in this process, given the variable.
    const refusals = [
      { value: "abc", exited: await runGateway(["serve", "--data", dataDir], 10_000, { PORT: "abc" }) },
      { value: "70000", exited: await runGatewayInProcess(["serve", "--data", dataDir], { env: { PORT: "70000" } }) }
    ]
    for (const { value, exited } of refusals) {
      expect({ value, code: exited.code }).toEqual({ value, code: 2 })
      expect(exited.stderr).toMatch(/--port/)
    }
  })
})

/**
 * The unusable home file (exit 1) and `--help` (exit 0) run as processes: their exit code, and nothing
 * else on their streams. The others run in this process, the program the bin runs, with the exit code the
 * bin's teardown gives; a bad command line as a process (exit 2) is `serve --port abc` of
 * test/support/gatewayCli.test.ts, which shows the same streams and code as here, and the PORT above.
 */
describe("bad command lines", () => {
  it.each([
    [["serve", "--port", "abc"], /--port/],
    [["serve", "--port", "-1"], /--port/],
    [["serve", "--port", "65536"], /--port/],
    [["serve", "--max-body-bytes", "0"], /--max-body-bytes/],
    [["serve", "--no-such-flag"], /--no-such-flag/],
    [["serve", "--deprecate-vocabulary-a=2027-02-30"], /--deprecate-vocabulary-a: "2027-02-30"/],
    [["serve", "--deprecate-vocabulary-a=next year"], /--deprecate-vocabulary-a: "next year"/],
    // A broker URL without a scheme the MQTT client speaks started, then logged a parse error forever.
    [["serve", "--mqtt", "127.0.0.1:1883"], /--mqtt: "127\.0\.0\.1:1883"\. Expected: a URL of mqtt:\/\/, mqtts:\/\/, ws:\/\/ or wss:\/\//],
    [["serve", "--mqtt", "http://127.0.0.1:1883"], /--mqtt: "http:\/\/127\.0\.0\.1:1883"/],
    [["no-such-command"], /no-such-command/]
  ])("%j exits with code 2 and says why on stderr", async (args, mentions) => {
    const exited = await runGatewayInProcess(args)
    expect(exited.code).toBe(2)
    expect(exited.stderr).toMatch(mentions)
    expect(exited.stdout).not.toContain("listening on")
  })

  it("an unusable home file exits with code 1 and one line on stderr naming the place in the file", async () => {
    const home = join(dataDir, "misspelt-home.json")
    await writeFile(home, JSON.stringify({ services: [{ id: "service:x@sim", latncy_ms: 3 }] }))
    const exited = await runGateway(["serve", "--home", home, "--port", "0", "--data", dataDir])
    expect(exited.code).toBe(1)
    expect(exited.stderr).toContain(`cannot use the home file: ${home}: services[0].latncy_ms: unknown field`)
    expect(exited.stderr).not.toMatch(/\bat .*\.js:\d+/) // no stack trace
    expect(exited.stdout).toBe("")
  })

  /** The one line that says why the gateway did not start, and nothing of a stack or a banner. */
  const expectOneLine = (stderr: string, line: string) => {
    expect(stderr.split("\n").filter((l) => l.startsWith("gateway: "))).toEqual([line])
    expect(stderr).not.toMatch(/\bat .*\.js:\d+/)
    expect(stderr).not.toMatch(/^ERROR$/m)
  }

  it("a missing home file exits with code 1 and says so in one line", async () => {
    const home = join(dataDir, "no-such-home.json")
    const exited = await runGatewayInProcess(["serve", "--home", home, "--port", "0", "--data", dataDir])
    expect(exited.code).toBe(1)
    expectOneLine(exited.stderr, `gateway: cannot use the home file: ${home}: no such file`)
    expect(exited.stdout).toBe("")
  })

  it("a file where the data folder should be exits with code 1 and one line", async () => {
    const file = join(dataDir, "a-file")
    await writeFile(file, "")
    const exited = await runGatewayInProcess(["serve", "--port", "0", "--data", file])
    expect(exited.code).toBe(1)
    expectOneLine(
      exited.stderr,
      `gateway: cannot use the data folder ${file}: opening ${join(file, "gateway.db")} failed: ${file} is a file, not a folder`
    )
  })

  it("a corrupt gateway.db exits with code 1 and one line", async () => {
    const folder = await mkdtemp(join(dataDir, "corrupt-"))
    await writeFile(join(folder, "gateway.db"), "not a database, not at all, and long enough to be read as a header")
    const exited = await runGatewayInProcess(["serve", "--port", "0", "--data", folder])
    expect(exited.code).toBe(1)
    expectOneLine(
      exited.stderr,
      `gateway: cannot use the data folder ${folder}: enabling WAL on ${join(folder, "gateway.db")} failed: file is not a database`
    )
  })

  it("a database written by a newer gateway exits with code 1 and one line, the file untouched", async () => {
    const folder = await mkdtemp(join(dataDir, "newer-"))
    const file = join(folder, "gateway.db")
    const db = new BetterSqlite3(file)
    db.pragma("user_version = 99")
    db.close()
    const exited = await runGatewayInProcess(["serve", "--port", "0", "--data", folder])
    expect(exited.code).toBe(1)
    expectOneLine(
      exited.stderr,
      `gateway: cannot use the data folder ${folder}: ${file} has schema version 99, but this gateway knows versions up to ${migrations.length}: ` +
        "a newer gateway wrote it. Run that newer gateway, or give this one another data folder."
    )
    const after = new BetterSqlite3(file, { readonly: true })
    expect(after.pragma("user_version", { simple: true })).toBe(99)
    after.close()
  })

  it("--help describes serve and exits with code 0", async () => {
    const exited = await runGateway(["--help"])
    expect(exited.code).toBe(0)
    expect(exited.stdout).toContain("serve")
  })

  it("serve --help lists the flags", async () => {
    const exited = await runGatewayInProcess(["serve", "--help"])
    expect(exited.code).toBe(0)
    for (const flag of ["--home", "--data", "--host", "--port", "--device-timeout", "--max-body-bytes"]) {
      expect(exited.stdout).toContain(flag)
    }
  })
})
