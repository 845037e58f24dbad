import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, posix, relative, resolve, sep } from "node:path"

/** One import of one file: what it names (`../store/Database.ts`, `effect/http`) and what that is. */
export interface Import {
  /** The importing file, from the repository's root: `src/gateway/Tags.ts`. */
  readonly file: string
  readonly specifier: string
  /** A file of ours from the repository's root (`src/store/Database.ts`), else the package (`effect/http`, `node:fs`). */
  readonly target: string
}

/**
 * Static imports and re-exports, whatever their clause (`import x, { y } from`, `import type`, `import * as`,
 * `export { … } from`, `export * from`, `import "…"`), one line or several. The clause holds only names,
 * braces, commas and `*`, so a statement that is not an import (`export const a = …`) cannot match, nor
 * can an example in a comment (its line starts with `*` or `//`).
 */
const staticImport = /^[ \t]*(?:import|export)\s+(?:type\s+)?(?:[\w$*{}\s,]+?\s+from\s+)?["']([^"']+)["']/gm
const dynamicImport = /\bimport\(\s*["']([^"']+)["']\s*\)/g

/** The specifiers `source` imports, in order of the kinds above. */
export const specifiersOf = (source: string): ReadonlyArray<string> =>
  [staticImport, dynamicImport].flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1] ?? ""))

const toPosix = (path: string) => path.split(sep).join(posix.sep)

const tsFiles = (folder: string): ReadonlyArray<string> =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    return entry.isDirectory() ? tsFiles(path) : entry.name.endsWith(".ts") ? [path] : []
  })

/** Every import of every `.ts` file under `folder` (of the repository at `root`). */
export const importsUnder = (root: string, folder: string): ReadonlyArray<Import> =>
  tsFiles(join(root, folder)).flatMap((path) => {
    const file = toPosix(relative(root, path))
    return specifiersOf(readFileSync(path, "utf8")).map((specifier) => ({
      file,
      specifier,
      target: specifier.startsWith(".") ? toPosix(relative(root, resolve(dirname(path), specifier))) : specifier
    }))
  })

/** Whether `path` is `folder` or inside it (`effect/http` is inside `effect`, `src/storefront` is not inside `src/store`). */
export const within = (path: string, folder: string): boolean => path === folder || path.startsWith(`${folder}/`)

/** A rule of the layering: the files in `layer` import nothing that `forbids` says, and say why. */
export interface ImportRule {
  readonly layer: string
  readonly forbids: (target: string) => boolean
  readonly rule: string
}

/** Only these (folders of ours, or packages). */
export const only = (...allowed: ReadonlyArray<string>) => (target: string) => !allowed.some((folder) => within(target, folder))

/** Nothing from these. */
export const nothingFrom = (...forbidden: ReadonlyArray<string>) => (target: string) => forbidden.some((folder) => within(target, folder))

/** Each import that breaks a rule, as one line: `src/gateway/Tags.ts imports src/store/Database.ts: <rule>`. */
export const violations = (imports: ReadonlyArray<Import>, rules: ReadonlyArray<ImportRule>): ReadonlyArray<string> =>
  imports.flatMap((i) =>
    rules
      .filter((r) => within(i.file, r.layer) && r.forbids(i.target))
      .map((r) => `${i.file} imports ${i.target}: ${r.rule}`)
  )
