import { execFile } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningGateway, spawnGateway } from "../support/spawnGateway.ts"
import { freshDataDir } from "../support/gatewayTestLayer.ts"

/**
 * `@home-gateway/client` as an app gets it (issue 38, docs/client.md "Installing"): the workspace
 * packages/client packed (`npm pack`, what `npm run pack:client` writes to dist/), installed into an empty
 * app beside the `effect` of the gateway's lock, from npm's cache where it holds them; a strict app
 * type-checked with the gateway's TypeScript 7 and the TypeScript 5.9 of test/fixtures/openapi-types,
 * then run against a gateway. Needs `npm run build` first (which builds packages/client/dist).
 */

const root = join(import.meta.dirname, "..", "..")
const run = promisify(execFile)
const rootManifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { readonly version: string }
const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as {
  readonly packages: Readonly<Record<string, { readonly version?: string }>>
}
const effectVersion = lock.packages["node_modules/effect"]?.version ?? "missing from the lock"

/** What an app writes: both entries, both faces, both vocabularies (A's read with a selector is a GET with a body). */
const app = `import { createClient, everyGetter, GatewayClient } from "@home-gateway/client"
import { nodePlatform } from "@home-gateway/client/node"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

const url = process.env["GATEWAY_URL"] ?? ""
const token = process.env["TOKEN"] ?? ""

const client = createClient({ url, token, vocabulary: "a", platform: nodePlatform })
const read = await client.fetch([everyGetter])
console.log("read in a:", read.length, read.every((outcome) => outcome.result._tag === "Success"))
await client.close()

const getters = await Effect.runPromise(
  GatewayClient.use((c) => c.getters([everyGetter])).pipe(
    Effect.provide(GatewayClient.layer({ url, token, vocabulary: "b" }).pipe(Layer.provide(nodePlatform)))
  )
)
console.log("getters in b:", getters.length)
`

/** As strict as an app may be, declarations of its packages checked too (no skipLibCheck). */
const tsconfig = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    module: "NodeNext",
    moduleResolution: "NodeNext",
    target: "ES2023",
    types: ["node"],
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true
  },
  files: ["app.ts"]
}

/** The packages under an app's node_modules, scoped ones by their full name. */
const installed = (modules: string): ReadonlyArray<string> =>
  readdirSync(modules).flatMap((name) =>
    name.startsWith(".") ? [] : name.startsWith("@") ? readdirSync(join(modules, name)).map((inner) => `${name}/${inner}`) : [name]
  )

/** `npm install` from the cache alone; where the cache lacks a package's metadata, from the registry for that. */
const installFromCache = async (folder: string, specs: ReadonlyArray<string>): Promise<void> => {
  const npm = (mode: string) => run("npm", ["install", mode, "--no-audit", "--no-fund", "--loglevel=error", ...specs], { cwd: folder, timeout: 180_000 })
  await npm("--offline").catch(() => npm("--prefer-offline"))
}

let folder = ""
let packedFiles: ReadonlyArray<string> = []
let gateway: RunningGateway | undefined

beforeAll(async () => {
  expect(existsSync(join(root, "packages", "client", "dist", "client", "index.js")), "packages/client/dist: run `npm run build` first").toBe(true)
  folder = mkdtempSync(join(process.env["GATEWAY_TEST_ROOT"] ?? tmpdir(), "client-app-"))
  const { stdout } = await run("npm", ["pack", "--workspace", "packages/client", "--pack-destination", folder, "--json", "--loglevel=error"], { cwd: root })
  const [packed] = JSON.parse(stdout) as ReadonlyArray<{ readonly filename: string; readonly files: ReadonlyArray<{ readonly path: string }> }>
  if (packed === undefined) throw new Error(`npm pack said nothing of a tarball: ${stdout}`)
  packedFiles = packed.files.map((file) => file.path)
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "an-app", private: true, type: "module" }))
  await installFromCache(folder, [`./${packed.filename}`, `effect@${effectVersion}`])
  // The app's own types for Node (`process`), not something the package brings.
  mkdirSync(join(folder, "node_modules", "@types"), { recursive: true })
  symlinkSync(join(root, "node_modules", "@types", "node"), join(folder, "node_modules", "@types", "node"))
  writeFileSync(join(folder, "app.ts"), app)
  writeFileSync(join(folder, "tsconfig.json"), JSON.stringify(tsconfig))
}, 300_000)

afterAll(async () => {
  await gateway?.stop()
})

/** The type checker's complaints about the app, with the given `tsc`; empty when it type-checks. */
const typeErrors = async (tsc: string): Promise<string> =>
  run(tsc, ["-p", folder], { cwd: folder, timeout: 240_000 }).then(
    () => "",
    (error: { readonly stdout?: string }) => String(error.stdout ?? error)
  )

describe("the client's package", () => {
  it("holds the compiled client, its shared shapes and their declarations, and nothing of the server", () => {
    expect(packedFiles).toEqual(expect.arrayContaining([
      "package.json",
      "dist/client/index.js",
      "dist/client/index.d.ts",
      "dist/client-node/index.js",
      "dist/client-node/index.d.ts",
      "dist/api/VocabularyB.js",
      "dist/vocabulary/a/index.js",
      "dist/domain/Selector.d.ts"
    ]))
    expect(packedFiles.filter((file) => !file.startsWith("dist/") && file !== "package.json" && file !== "README.md")).toEqual([])
    expect(packedFiles.filter((file) => /^dist\/(http|gateway|store|auth|adapters|cli|dashboard)\//.test(file) || file.endsWith(".ts") && !file.endsWith(".d.ts"))).toEqual([])
  })

  it("is versioned with the gateway, and asks for effect 4.1 as a peer and for nothing else", () => {
    const manifest = JSON.parse(readFileSync(join(folder, "node_modules", "@home-gateway", "client", "package.json"), "utf8"))
    expect(manifest.version).toBe(rootManifest.version)
    expect(manifest.peerDependencies).toEqual({ effect: "^4.1.0" })
    expect(manifest.dependencies).toBeUndefined()
    expect(manifest.optionalDependencies).toBeUndefined()
  })

  it("installs with effect alone: none of the server's dependencies come with it", () => {
    expect([...installed(join(folder, "node_modules"))].sort()).toEqual(["@home-gateway/client", "@types/node", "effect"])
    expect(readFileSync(join(folder, "node_modules", "effect", "package.json"), "utf8")).toContain(`"version": "${effectVersion}"`)
  })

  it("type-checks in a strict app with TypeScript 7", async () => {
    expect(await typeErrors(join(root, "node_modules", ".bin", "tsc"))).toBe("")
  }, 240_000)

  it("type-checks in a strict app with TypeScript 5.9", async () => {
    const tsc = join(root, "test", "fixtures", "openapi-types", "node_modules", ".bin", "tsc")
    expect((await run(tsc, ["--version"])).stdout).toMatch(/^Version 5\.9\./)
    expect(await typeErrors(tsc)).toBe("")
  }, 240_000)

  it("runs the app against a gateway, in A (a read with a body, over node:http) and in B (the Effect face)", async () => {
    gateway = await spawnGateway(["serve", "--port", "0", "--no-clock", "--data", freshDataDir()])
    const { stdout } = await run(join(root, "node_modules", ".bin", "node"), ["app.ts"], {
      cwd: folder,
      env: { ...process.env, GATEWAY_URL: gateway.baseUrl, TOKEN: gateway.token ?? "" },
      timeout: 30_000
    })
    const [, readCount] = /^read in a: (\d+) true$/m.exec(stdout) ?? []
    expect(Number(readCount)).toBeGreaterThan(0)
    expect(stdout).toContain(`getters in b: ${readCount}`)
  }, 60_000)
})
