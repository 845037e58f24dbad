import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { existsSync } from "node:fs"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type RunningGateway, runGateway, spawnGateway } from "../support/spawnGateway.ts"

let dataDir = ""

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "gateway-serve-"))
})

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true })
})

describe("gateway serve", () => {
  let gateway: RunningGateway | undefined

  beforeAll(async () => {
    gateway = await spawnGateway(["serve", "--port", "0", "--data", dataDir])
  })

  afterAll(async () => {
    await gateway?.stop("SIGKILL", 1_000)
  })

  const base = () => {
    if (gateway === undefined) throw new Error("the gateway did not start")
    return gateway.baseUrl
  }

  it("prints one listening line with the bound port", () => {
    expect(base()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(base()).not.toMatch(/:0$/)
    expect(gateway?.stdout().match(/listening on/g)).toHaveLength(1)
  })

  it("answers GET /health with 200 {\"status\":\"ok\"}", async () => {
    const response = await fetch(`${base()}/health`)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("application/json")
    expect(await response.json()).toEqual({ status: "ok" })
  })

  it("answers an unknown path with 404 and a JSON string", async () => {
    const response = await fetch(`${base()}/nope`)
    expect(response.status).toBe(404)
    expect(response.headers.get("content-type")).toBe("application/json")
    expect(typeof (await response.json())).toBe("string")
  })
})

describe("stopping", () => {
  it.each(["SIGTERM", "SIGINT"] as const)("exits with code 0 on %s, its database closed", async (signal) => {
    const gateway = await spawnGateway(["serve", "--port", "0", "--data", dataDir])
    expect(existsSync(join(dataDir, "gateway.db-wal"))).toBe(true)
    const exited = await gateway.stop(signal)
    expect(exited).toMatchObject({ code: 0, signal: null })
    // Logs (a first run's migration, say) go to stderr; a clean stop adds no error to them.
    expect(exited.stderr).not.toMatch(/error/i)
    // SQLite removes the write-ahead log when the last connection closes cleanly.
    expect(existsSync(join(dataDir, "gateway.db-wal"))).toBe(false)
  })
})

describe("bad command lines", () => {
  it.each([
    [["serve", "--port", "abc"], /--port/],
    [["serve", "--port", "-1"], /--port/],
    [["serve", "--port", "65536"], /--port/],
    [["serve", "--max-body-bytes", "0"], /--max-body-bytes/],
    [["serve", "--no-such-flag"], /--no-such-flag/],
    [["no-such-command"], /no-such-command/]
  ])("%j exits with code 2 and says why on stderr", async (args, mentions) => {
    const exited = await runGateway(args)
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

  it("--help describes serve and exits with code 0", async () => {
    const exited = await runGateway(["--help"])
    expect(exited.code).toBe(0)
    expect(exited.stdout).toContain("serve")
  })

  it("serve --help lists the flags", async () => {
    const exited = await runGateway(["serve", "--help"])
    expect(exited.code).toBe(0)
    for (const flag of ["--home", "--data", "--host", "--port", "--device-timeout", "--max-body-bytes"]) {
      expect(exited.stdout).toContain(flag)
    }
  })
})
