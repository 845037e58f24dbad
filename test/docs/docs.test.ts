import { mkdtempSync, readdirSync, readFileSync, symlinkSync } from "node:fs"
import { join } from "node:path"
import { Option, Result } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parseHome } from "../../src/adapters/simulator/HomeFile.ts"
import { operationNames } from "../../src/api/Translation.ts"
import { defaultGatewayOptions } from "../../src/GatewayOptions.ts"
import { runGatewayInProcess } from "../support/gatewayCli.ts"
import { type GatewayOverHttp, startGateway } from "../support/gatewayOverHttp.ts"
import { freshDataDir } from "../support/gatewayTestLayer.ts"
import { docExamples, programExamples, serveCommand, translateExamples, withoutTimes } from "./docExamples.ts"
import { programFolder, runProgram, typeErrors } from "./programs.ts"
import { type AssumedGateway, runShellExample, type ShellExample, shellExamples } from "./shellExamples.ts"

/**
 * Every example of every document in docs/ is a request and its exact answer, run in order against a
 * gateway started as the document says (its `npm start -- …` line), so the docs cannot drift.
 * The shell examples (curl and `gateway` commands) of the README and docs/ are run as pasted, in bash
 * with the real curl (see shellExamples.ts); those that need a Zigbee2MQTT bridge run in
 * test/cli/serveMqtt.test.ts, beside one.
 */
const root = join(import.meta.dirname, "..", "..")

/**
 * The docs' gateway, with `$TOKEN` a token as the first run prints it: one that expires in 30 days (the
 * default `--session-days`), so that an example that only a never-expiring token could run fails here.
 */
const startDocsGateway = (home: unknown, config: Parameters<typeof startGateway>[1]) =>
  startGateway(home, config, { tokenExpiresAt: Date.now() + defaultGatewayOptions.sessionDays * 24 * 60 * 60 * 1000 })

const docsDir = join(root, "docs")
const documents = readdirSync(docsDir)
  .filter((name) => name.endsWith(".md"))
  .map((name) => {
    const markdown = readFileSync(join(docsDir, name), "utf8")
    return {
      name,
      examples: docExamples(markdown),
      serve: serveCommand(markdown),
      translations: translateExamples(markdown),
      programs: programExamples(markdown)
    }
  })
const withExamples = documents.filter((doc) => doc.examples.length > 0)

/** Documents whose examples must exist and run: the API is explained by example. */
const documentsWithExamples = ["vocabulary-a.md", "vocabulary-b.md", "migrating-a-to-b.md", "auth.md"]

it("finds runnable examples in every vocabulary document", () => {
  const names = withExamples.map((d) => d.name)
  for (const name of documentsWithExamples) expect(names).toContain(name)
})

it("every document with examples states, before them, the command they assume", () => {
  for (const { name, examples, serve } of withExamples) {
    expect({ name, states: serve !== undefined }).toEqual({ name, states: true })
    expect({ name, before: (serve?.line ?? Infinity) < (examples[0]?.line ?? 0) }).toEqual({ name, before: true })
  }
})

describe.each(withExamples)("docs/$name", ({ examples, serve }) => {
  let gateway: GatewayOverHttp
  beforeAll(async () => {
    if (serve?.home === undefined) throw new Error("the examples runner needs --home in the stated command")
    const home: unknown = JSON.parse(readFileSync(join(root, serve.home), "utf8"))
    gateway = await startDocsGateway(home, { clock: serve.clock })
  })
  afterAll(() => gateway.close())

  it.each(examples)("line $line: $method $path answers as documented", async (example) => {
    const fill = (text: string) =>
      text.replaceAll("$TOKEN", gateway.token).replaceAll("$ADMIN_BASIC", Buffer.from(`admin:${gateway.adminPassword}`).toString("base64"))
    const headers = Object.fromEntries(Object.entries(example.headers).map(([name, value]) => [name, fill(value)]))
    const answer = await gateway.call(example.method, fill(example.path), example.body, headers)
    expect({ status: answer.status, body: withoutTimes(answer.json) }).toEqual({
      status: example.status,
      body: withoutTimes(example.response)
    })
  })
})

const withPrograms = documents.filter((doc) => doc.programs.length > 0)

it("finds the programs of docs/client.md", () => {
  expect(withPrograms.map((d) => d.name)).toContain("client.md")
})

describe.each(withPrograms)("docs/$name, its programs", ({ programs, serve }) => {
  let gateway: GatewayOverHttp
  const folder = programFolder(programs, freshDataDir())
  beforeAll(async () => {
    if (serve?.home === undefined || serve.line > (programs[0]?.line ?? 0)) {
      throw new Error("the programs runner needs the stated command, with --home, before the programs")
    }
    gateway = await startDocsGateway(JSON.parse(readFileSync(join(root, serve.home), "utf8")), { clock: serve.clock })
  })
  afterAll(() => gateway.close())

  it("type-check", async () => {
    expect(await typeErrors(folder)).toBe("")
  })

  it.each(programs.map((program, i) => ({ ...program, file: folder.files[i] ?? "" })))(
    "line $line runs and prints what the document shows",
    async ({ file, prints }) => {
      const printed = await runProgram(folder.folder, file, { GATEWAY_URL: gateway.baseUrl, TOKEN: gateway.token })
      expect(printed.trim()).toBe(prints.trim())
    }
  )
})

const translations = documents.flatMap(({ name, translations }) => translations.map((t) => ({ name, ...t })))

it("finds the gateway translate examples", () => {
  expect(translations.length).toBeGreaterThan(0)
})

// In this process (gatewayCli.ts): test/crossVocabulary/translateCommand.test.ts runs the command as a process.
describe.each(translations)("docs/$name, line $line: gateway translate $operation", ({ operation, body, answer, printed }) => {
  it("prints what the document shows", async () => {
    const exited = await runGatewayInProcess([
      "translate",
      operation,
      ...(body === undefined ? [] : [body]),
      ...(answer === undefined ? [] : ["--answer", answer])
    ])
    expect({ code: exited.code, printed: JSON.parse(exited.stdout) }).toEqual({ code: 0, printed })
  })
})

it("docs/migrating-a-to-b.md names every operation gateway translate accepts", () => {
  const markdown = readFileSync(join(docsDir, "migrating-a-to-b.md"), "utf8")
  const section = markdown.slice(markdown.indexOf("## `gateway translate`"))
  for (const name of Object.keys(operationNames)) expect({ name, named: section.includes(`\`${name}\``) }).toEqual({ name, named: true })
})

it("the home file example of docs/simulator.md is a home the simulator reads", () => {
  const markdown = readFileSync(join(docsDir, "simulator.md"), "utf8")
  const example = /## The home file[\s\S]*?```json\n([\s\S]*?)\n```/.exec(markdown)?.[1]
  if (example === undefined) throw new Error("no home file example under \"## The home file\"")
  const home = parseHome(example, "docs/simulator.md")
  expect(Result.isSuccess(home) ? "read" : home.failure.message).toBe("read")
})

// ---- shell examples: curl and gateway commands of the README and every page of docs/ ----------------

const shellDocuments = ["README.md", ...readdirSync(docsDir, { recursive: true, encoding: "utf8" }).map((name) => join("docs", name))]
  .filter((name) => name.endsWith(".md"))
  .sort()
const shell = shellDocuments.flatMap((name) => shellExamples(readFileSync(join(root, name), "utf8")).map((example) => ({ name, ...example })))

/** Starts the gateway `assumed` names (the demo home when no --home), with a folder holding `data`, its database, to run commands in. */
const gatewayAssumed = async (assumed: AssumedGateway) => {
  const home: unknown = assumed.home === undefined ? {} : JSON.parse(readFileSync(join(root, assumed.home), "utf8"))
  const gateway = await startDocsGateway(home, { clock: assumed.clock, ...(assumed.home === undefined ? { home: Option.none() } : {}) })
  const cwd = mkdtempSync(join(freshDataDir(), "shell-"))
  symlinkSync(gateway.dataDir, join(cwd, assumed.data))
  return { gateway, cwd }
}

/** Files the example writes with `> FILE`. */
const writtenFiles = (example: ShellExample): ReadonlyArray<string> => [...example.script.matchAll(/>\s*(\S+)\s*$/gm)].map((m) => m[1] ?? "")

it("finds the shell examples of the README, the vocabulary B page, the auth page and the MQTT page", () => {
  const names = new Set(shell.map((example) => example.name))
  for (const name of ["README.md", "docs/vocabulary-b.md", "docs/auth.md", "docs/adapters/mqtt.md"]) expect(names).toContain(name)
})

it("leaves to test/cli/serveMqtt.test.ts only the examples of docs/adapters/mqtt.md, which need a bridge", () => {
  expect(shell.filter((example) => example.gateway.bridge).map((example) => example.name)).toEqual(["docs/adapters/mqtt.md"])
})

/** The example of docs/auth.md that makes a scoped token: run once, below, where its token is also used. */
const scopedTokenExample = shell.find((e) => e.name === "docs/auth.md" && e.script.includes("tokens create") && e.script.includes("--scope"))

/** What every shell example is checked for: bash and every command succeeded, and each file it writes holds something. */
const expectRanAsPasted = (example: ShellExample, run: { readonly code: number | null; readonly stderr: string }, cwd: string) => {
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" })
  for (const file of writtenFiles(example)) {
    const bytes = readFileSync(join(cwd, file))
    expect({ file, empty: bytes.length === 0 }).toEqual({ file, empty: false })
    if (file.endsWith(".gif")) expect(bytes.subarray(0, 4).toString("latin1")).toBe("GIF8")
  }
}

describe.each(shell.filter((example) => !example.gateway.bridge && example !== scopedTokenExample))("$name, line $line", (example) => {
  it("runs as pasted, with $TOKEN set, on the gateway the document starts, every answer below 400", async () => {
    const { gateway, cwd } = await gatewayAssumed(example.gateway)
    try {
      expectRanAsPasted(example, await runShellExample(example, { baseUrl: gateway.baseUrl, token: gateway.token, cwd }), cwd)
    } finally {
      await gateway.close()
    }
  })
})

describe("docs/auth.md: gateway tokens create --scope", () => {
  it("runs as pasted and makes a token that reaches exactly the channels of its scope, with its rights only", async () => {
    if (scopedTokenExample === undefined) throw new Error("no `gateway tokens create --scope` example in docs/auth.md")
    const scope = JSON.parse(/--scope '([^']*)'/.exec(scopedTokenExample.script)?.[1] ?? "null") as { channels: unknown }
    const { gateway, cwd } = await gatewayAssumed(scopedTokenExample.gateway)
    try {
      const run = await runShellExample(scopedTokenExample, { baseUrl: gateway.baseUrl, token: gateway.token, cwd })
      expectRanAsPasted(scopedTokenExample, run, cwd)
      const scoped = { authorization: `Bearer ${run.stdout.trim()}` }
      const everything = await gateway.call("GET", "/api/v1/channels/getters", undefined, scoped)
      const ofScope = await gateway.call("POST", "/api/v1/channels/getters", scope.channels)
      expect(everything.status).toBe(200)
      expect((everything.json as ReadonlyArray<unknown>).length).toBeGreaterThan(0)
      expect(everything.json).toEqual(ofScope.json)
      const tagging = await gateway.call("POST", "/api/v1/channels/tag", { set: {}, tags: ["x"] }, scoped)
      expect(tagging.status).toBe(403)
    } finally {
      await gateway.close()
    }
  })
})
