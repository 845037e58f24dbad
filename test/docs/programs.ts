import { execFile } from "node:child_process"
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { promisify } from "node:util"
import { compileCacheEnv } from "../support/compileCache.ts"
import type { ProgramExample } from "./docExamples.ts"

/**
 * Runs the TypeScript programs of a document as an app would: each a module importing the package by
 * its name (`@home-gateway/client`, the built packages/client: `npm run build` first; the former
 * `home-gateway/client` too), in a folder of its own whose node_modules hold the package and its peers,
 * type-checked together with `tsc`, then run on the pinned Node (which strips the types).
 */

const root = join(import.meta.dirname, "..", "..")
const run = promisify(execFile)

export interface ProgramFolder {
  readonly folder: string
  readonly files: ReadonlyArray<string>
}

/** A folder with the programs written in it, and the package and `effect` installed as links. */
export const programFolder = (programs: ReadonlyArray<ProgramExample>, tempRoot: string): ProgramFolder => {
  const folder = mkdtempSync(join(tempRoot, "programs-"))
  mkdirSync(join(folder, "node_modules", "@types"), { recursive: true })
  symlinkSync(root, join(folder, "node_modules", "home-gateway"))
  mkdirSync(join(folder, "node_modules", "@home-gateway"))
  symlinkSync(join(root, "packages", "client"), join(folder, "node_modules", "@home-gateway", "client"))
  symlinkSync(join(root, "node_modules", "effect"), join(folder, "node_modules", "effect"))
  symlinkSync(join(root, "node_modules", "@types", "node"), join(folder, "node_modules", "@types", "node"))
  writeFileSync(join(folder, "package.json"), JSON.stringify({ type: "module", private: true }))
  const files = programs.map((example) => {
    const file = `line-${example.line}.ts`
    writeFileSync(join(folder, file), example.program)
    return file
  })
  // skipLibCheck, as apps set it: the programs are checked against every type they use, but the .d.ts
  // files of effect and Node are not checked themselves (two thirds of tsc's CPU here; the client's own
  // .d.ts files are checked as installed by test/package).
  writeFileSync(join(folder, "tsconfig.json"), JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      module: "NodeNext",
      moduleResolution: "NodeNext",
      target: "ES2023",
      types: ["node"]
    },
    files
  }))
  return { folder, files }
}

/** The type checker's complaints about the programs; empty when they type-check. */
export const typeErrors = async ({ folder }: ProgramFolder): Promise<string> => {
  try {
    await run(join(root, "node_modules", ".bin", "tsc"), ["-p", folder], { cwd: folder })
    return ""
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error)
  }
}

/** Runs one program with `env` set; answers what it printed, or throws with what it said. */
export const runProgram = async (folder: string, file: string, env: Readonly<Record<string, string>>): Promise<string> => {
  const { stdout } = await run(join(root, "node_modules", ".bin", "node"), [file], {
    cwd: folder,
    env: { ...process.env, ...compileCacheEnv, ...env },
    timeout: 30_000
  })
  return stdout
}
