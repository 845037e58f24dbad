import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

/**
 * The PostgreSQL driver is loaded only when asked for (`--database-url`, `gateway store copy`): a gateway
 * on SQLite neither loads nor parses it. Read from the bundle `npm run build` makes (dist/gateway.js and
 * its chunks), which is what `npm start` runs.
 */
const dist = fileURLToPath(new URL("../../dist/", import.meta.url))

/** Words only the driver holds (@effect/sql-pg's connection). */
const driverMarker = "PgConnection: Failed to connect"

/** The chunks a file imports: `static`, at once; `dynamic`, when the code asks (`import("./…")`). */
const importsOf = (file: string) => {
  const code = readFileSync(join(dist, file), "utf8")
  const inChunks = (path: string) => join(file.startsWith("chunks/") ? "chunks" : "", path)
  return {
    code,
    static: [...code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)].map((match) => inChunks(match[1] ?? "")),
    dynamic: [...code.matchAll(/import\("\.\/([^"]+\.js)"\)/g)].map((match) => inChunks(match[1] ?? ""))
  }
}

/** Every file loaded from `entry`, following static imports, and dynamic ones that `follow` accepts. */
const loadedFrom = (entry: string, follow: (file: string) => boolean): ReadonlySet<string> => {
  const loaded = new Set<string>()
  const visit = (file: string) => {
    if (loaded.has(file)) return
    loaded.add(file)
    const imports = importsOf(file)
    for (const next of imports.static) visit(next)
    for (const next of imports.dynamic.filter(follow)) visit(next)
  }
  visit(entry)
  return loaded
}

const holdsDriver = (files: ReadonlySet<string>) => [...files].some((file) => importsOf(file).code.includes(driverMarker))

/** The chunks of the modules that use PostgreSQL (src/store/PgStore.ts, src/store/StoreCopy.ts). */
const postgresModule = (file: string) => /^chunks\/(?:PgStore|StoreCopy)-/.test(file)

describe("the PostgreSQL driver in the bundle", () => {
  it("is not among what a gateway on SQLite loads, whatever command it runs", () => {
    const loaded = loadedFrom("gateway.js", (file) => !postgresModule(file))
    expect(loaded.size).toBeGreaterThan(3)
    expect(holdsDriver(loaded)).toBe(false)
  })

  it("is what the PostgreSQL modules load, in chunks of their own", () => {
    const modules = readdirSync(join(dist, "chunks")).map((name) => `chunks/${name}`).filter((file) => postgresModule(file) && file.endsWith(".js"))
    expect(modules).toHaveLength(2)
    for (const module of modules) expect(holdsDriver(loadedFrom(module, () => true))).toBe(true)
  })
})
