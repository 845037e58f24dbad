import { build } from "esbuild"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { basename, join } from "node:path"

/**
 * Builds the dashboard (src/dashboard) into dist/dashboard: one JavaScript bundle and one style sheet
 * under assets/, named by their content's hash (so the server can let browsers keep them for good), and
 * index.html naming them. Run by `npm run build`, after the compiler.
 */

const root = join(import.meta.dirname, "..", "..")
const source = join(root, "src", "dashboard")
const out = join(root, "dist", "dashboard")

rmSync(out, { recursive: true, force: true })
mkdirSync(join(out, "assets"), { recursive: true })

const result = await build({
  entryPoints: [join(source, "main.tsx"), join(source, "style.css")],
  outdir: join(out, "assets"),
  entryNames: "[name]-[hash]",
  bundle: true,
  minify: true,
  format: "esm",
  target: ["chrome120", "firefox120", "safari17"],
  tsconfig: join(source, "tsconfig.json"),
  legalComments: "none",
  metafile: true,
  logLevel: "warning"
})

/** The built file of `entry` (a path under src/dashboard), by its name under assets/. */
const builtName = (entry: string): string => {
  const found = Object.entries(result.metafile.outputs).find(([, output]) => output.entryPoint?.endsWith(entry))
  if (found === undefined) throw new Error(`the dashboard's build made nothing of ${entry}`)
  return basename(found[0])
}

const page = readFileSync(join(source, "index.html"), "utf8")
  .replace("{{script}}", `/assets/${builtName("main.tsx")}`)
  .replace("{{style}}", `/assets/${builtName("style.css")}`)
writeFileSync(join(out, "index.html"), page)
