import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import SwaggerParser from "@apidevtools/swagger-parser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type GatewayOverHttp, startGateway } from "../support/gatewayOverHttp.ts"
import { type Exited, nodeBin, runGateway } from "../support/spawnGateway.ts"
import { home } from "./vocabularyA/homes.ts"

/**
 * The OpenAPI document as the gateway serves it, read by the tools a client's author would use: a
 * standard parser validates it, and openapi-typescript generates types from it that type-check a small
 * client of three B operations (test/fixtures/openapi-types/client.ts), and refuse its mistakes.
 *
 * openapi-typescript needs TypeScript 5, the project is on TypeScript 7: both come from their own
 * fixture package (test/fixtures/openapi-types, installed by the `prepare` script). The program is
 * checked with both compilers: TypeScript 5 is what openapi-typescript's users compile with, 7 the
 * project's own.
 */

const fixture = fileURLToPath(new URL("../fixtures/openapi-types/", import.meta.url))
const generator = join(fixture, "node_modules/openapi-typescript/bin/cli.js")
const compilers = {
  "TypeScript 5 (the fixture's)": join(fixture, "node_modules/typescript/bin/tsc"),
  "TypeScript 7 (the project's)": fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url))
}
const program = readFileSync(join(fixture, "client.ts"), "utf8")

/** Runs a tool of the fixture (or the project) on the pinned Node, to its end. */
const run = (script: string, args: ReadonlyArray<string>): Promise<Exited> => runGateway(args, 60_000, {}, [nodeBin, script])

let gateway: GatewayOverHttp | undefined
let folder = ""

beforeAll(async () => {
  gateway = await startGateway(home)
  const served = await gateway.call("GET", "/api/v1/openapi.json")
  expect(served.status).toBe(200)
  folder = mkdtempSync(join(process.env["GATEWAY_TEST_ROOT"] ?? tmpdir(), "openapi-types-"))
  writeFileSync(join(folder, "openapi.json"), JSON.stringify(served.json))
  // skipDefaultLibCheck: TypeScript's own lib files are not checked again each run; the generated
  // openapi.d.ts and the client's modules are. Of its platform the client uses only `fetch`, declared as
  // it calls it, in place of the DOM lib: reading DOM's 1.5 MB of types was a third of each check's CPU
  // (TypeScript 5: 2.1 → 1.3 s; 7: 0.46 → 0.30 s, measured), and the mistakes are all in the generated types.
  writeFileSync(
    join(folder, "fetch.d.ts"),
    "declare function fetch(url: string, init: { method: string; headers: Record<string, string>; body: string }): " +
      "Promise<{ json(): Promise<unknown> }>\n"
  )
  writeFileSync(
    join(folder, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        lib: ["ES2022"],
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        noUncheckedIndexedAccess: true,
        noEmit: true,
        skipDefaultLibCheck: true,
        types: []
      },
      include: ["*.ts"]
    })
  )
}, 60_000)
afterAll(() => gateway?.close())

/** The program with one line changed: `from` must occur in it exactly once. */
const mutant = (from: string, to: string): string => {
  expect(program.split(from).length, `"${from}" occurs once in client.ts`).toBe(2)
  return program.replace(from, to)
}

/** Mistakes a client's author could make, each one line of the program changed, and what the compiler says. */
const mistakes = [
  ["a field no selector has", `{ tags: ["outside"], getters`, `{ tag: ["outside"], getters`, "'tag' does not exist"],
  ["a selector's id of the wrong type", `{ select: { id: setter }`, `{ select: { id: 7 }`, "'number' is not assignable"],
  ["a value no OnOff value holds", `value: { OnOff: "On" }`, `value: { OnOff: "Dimmed" }`, `'"Dimmed"' is not assignable`],
  ["a field of a service it does not have", `service.getters.filter`, `service.inputs.filter`, "'inputs' does not exist"],
  ["a TypeError's field it does not have", "error.TypeError.expected", "error.TypeError.wanted", "'wanted' does not exist"]
] as const

/**
 * The program and each mutant as a module of its own (`client.ts`, `mutant-N.ts`) in one project, so that
 * one compiler run checks them all (a run costs seconds; each module reports its own errors, by file name).
 */
const writeModules = (): void => {
  writeFileSync(join(folder, "client.ts"), program)
  for (const [index, [, from, to]] of mistakes.entries()) writeFileSync(join(folder, `mutant-${index}.ts`), mutant(from, to))
}

/**
 * The compiler's messages about one module of the project: each error line naming that file (tsc names it
 * relative to where it runs), with the indented lines that go on saying it.
 */
const messagesAbout = (checked: Exited, file: string): string => {
  const said: Array<string> = []
  let about = false
  for (const line of checked.stdout.split("\n")) {
    if (!/^\s/.test(line)) about = line.startsWith(`${file}(`) || line.includes(`/${file}(`)
    if (about) said.push(line)
  }
  return said.join("\n")
}

describe("the served OpenAPI document", () => {
  it("validates with a standard OpenAPI parser (@apidevtools/swagger-parser)", async () => {
    const parsed = await SwaggerParser.validate(join(folder, "openapi.json"))
    expect(parsed.info.title).toBe("Home gateway REST API")
    // It can refuse: the same document with an answer that says nothing of itself is not OpenAPI.
    const broken = JSON.parse(readFileSync(join(folder, "openapi.json"), "utf8")) as { paths: Record<string, Record<string, object>> }
    broken.paths["/api/v1/services"] = { get: { operationId: "get_services", responses: { "200": {} } } }
    writeFileSync(join(folder, "broken.json"), JSON.stringify(broken))
    await expect(SwaggerParser.validate(join(folder, "broken.json"))).rejects.toThrow(/description/)
  })

  describe("types generated from it by openapi-typescript", () => {
    beforeAll(async () => {
      const generated = await run(generator, [join(folder, "openapi.json"), "-o", join(folder, "openapi.d.ts")])
      expect({ code: generated.code, stderr: generated.stderr }).toEqual({ code: 0, stderr: "" })
    }, 60_000)

    for (const [name, compiler] of Object.entries(compilers)) {
      describe(name, () => {
        let checked: Exited | undefined
        beforeAll(async () => {
          writeModules()
          checked = await run(compiler, ["-p", join(folder, "tsconfig.json")])
        }, 60_000)
        const messages = (file: string): string => messagesAbout(checked ?? expect.unreachable("the compiler ran"), file)

        it("type-check a client of get_services, fetch_values and send_values", () => {
          expect(messages("client.ts")).toBe("")
        })

        it.each(mistakes.map(([mistake, , , message], index) => [mistake, index, message] as const))("refuse %s", (_, index, message) => {
          const said = messages(`mutant-${index}.ts`)
          expect(said).toContain("error TS")
          expect(said).toContain(message)
        })
      })
    }
  })
})
