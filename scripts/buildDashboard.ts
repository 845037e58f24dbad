import { build, type Plugin } from "esbuild"
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { basename, join } from "node:path"
import { gzipSync } from "node:zlib"

/**
 * Builds the dashboard (src/dashboard) into dist/dashboard: each page's HTML, and under assets/ the one
 * JavaScript bundle each page runs (whole: a page loads nothing else) and the style sheet they share,
 * named by their content's hash (so the server can let browsers keep them for good), without the API's
 * documentation texts (`withoutDocs`), and the icon a browser asks every site for (served at
 * /favicon.ico); beside each file, its gzipped bytes (`<name>.gz`), which the gateway serves as they are
 * (compressing them at each start cost it a fifth of its start-up). Run by `npm run build`, after the
 * compiler.
 */

const root = join(import.meta.dirname, "..", "..")
const source = join(root, "src", "dashboard")
const out = join(root, "dist", "dashboard")

/** The pages: the file each is written to (served at `/` for index.html, else `/<name>`), its bundle's entry, its title. */
const pages = [
  { file: "index.html", entry: "entries/main.tsx", title: "Home gateway" },
  { file: "tokens.html", entry: "entries/tokens.tsx", title: "Tokens · Home gateway" },
  { file: "migration.html", entry: "entries/migration.tsx", title: "Migration · Home gateway" }
] as const

/**
 * src/vocabulary/common/Docs.ts as the browser has it: `DOCS` is `false`, so minifying folds every
 * `DOCS ? "…" : ""` of the API's documentation to `""`, across modules.
 */
const withoutDocs: Plugin = {
  name: "without-docs",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]vocabulary[\\/]common[\\/]Docs\.ts$/ }, () => ({ contents: "export const DOCS = false", loader: "ts" }))
  }
}

rmSync(out, { recursive: true, force: true })
mkdirSync(join(out, "assets"), { recursive: true })

const result = await build({
  entryPoints: [...pages.map((p) => join(source, p.entry)), join(source, "style.css")],
  outdir: join(out, "assets"),
  entryNames: "[name]-[hash]",
  bundle: true,
  minify: true,
  format: "esm",
  target: ["chrome120", "firefox120", "safari17"],
  tsconfig: join(source, "tsconfig.json"),
  legalComments: "none",
  metafile: true,
  logLevel: "warning",
  plugins: [withoutDocs]
})

/** The built file of `entry` (a path under src/dashboard), by its name under assets/. */
const builtName = (entry: string): string => {
  const found = Object.entries(result.metafile.outputs).find(([, output]) => output.entryPoint?.endsWith(entry))
  if (found === undefined) throw new Error(`the dashboard's build made nothing of ${entry}`)
  return basename(found[0])
}

const template = readFileSync(join(source, "page.html"), "utf8")
for (const page of pages) {
  const html = template
    .replace("{{title}}", page.title)
    .replace("{{script}}", `/assets/${builtName(page.entry)}`)
    .replace("{{style}}", `/assets/${builtName("style.css")}`)
  writeFileSync(join(out, page.file), html)
}
copyFileSync(join(source, "favicon.svg"), join(out, "favicon.svg"))

for (const dir of [out, join(out, "assets")]) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile()) writeFileSync(join(dir, `${entry.name}.gz`), gzipSync(readFileSync(join(dir, entry.name)), { level: 9 }))
  }
}
