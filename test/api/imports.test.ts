import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { describe, expect, it } from "vitest"

/**
 * The API's descriptions are carried by clients too (a browser bundle among them): what src/api needs,
 * all the way down, is `effect`, the vocabularies and the domain; nothing of the server, and no Node
 * module. The client (`@home-gateway/client`, src/client) needs only those and src/api; its Node platform
 * (`@home-gateway/client/node`, src/client-node) adds Node's own HTTP. The client's package
 * (packages/client) is compiled from what these reach.
 */

const root = resolve(import.meta.dirname, "..", "..")

/** The module specifiers a file imports or re-exports (type-only imports included: a bundle keeps none, but they tie the layers all the same). */
const importsOf = (file: string): ReadonlyArray<string> =>
  [...readFileSync(file, "utf8").matchAll(/^\s*(?:import|export)\b[^"';]*?from\s+"([^"]+)"/gm)].map((m) => m[1] ?? "")

/** Every module the files of `folder` reach, by its path from the repository's root, and every package it names. */
const reached = (folder: string): { readonly files: ReadonlyArray<string>; readonly packages: ReadonlyArray<string> } => {
  const files = new Set<string>()
  const packages = new Set<string>()
  const pending = readdirSync(join(root, folder)).map((name) => join(root, folder, name))
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (files.has(file)) continue
    files.add(file)
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith(".")) pending.push(resolve(dirname(file), specifier))
      else packages.add(specifier)
    }
  }
  return { files: [...files].map((file) => relative(root, file)), packages: [...packages] }
}

const carried = ["src/api/", "src/vocabulary/", "src/domain/"]

describe.each([
  { folder: "src/api", allowed: carried, builtIn: [] },
  { folder: "src/client", allowed: ["src/client/", ...carried], builtIn: [] },
  { folder: "src/client-node", allowed: ["src/client-node/", "src/client/", ...carried], builtIn: ["node:http", "node:https"] }
])("$folder", ({ folder, allowed, builtIn }) => {
  it("imports only effect and what a client carries, all the way down", () => {
    const { files, packages } = reached(folder)
    expect(files.length).toBeGreaterThan(10)
    expect(files.filter((file) => !allowed.some((prefix) => file.startsWith(prefix)))).toEqual([])
    expect(packages.filter((name) => name !== "effect" && !name.startsWith("effect/") && !builtIn.includes(name))).toEqual([])
  })
})
