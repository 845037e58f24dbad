import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { build, type Metafile } from "esbuild"

/**
 * The size of an app in a browser: its source bundled by esbuild as the dashboard is (minified, ES
 * modules, for current browsers), written nowhere, gzipped at level 9; and what the minified bytes are
 * made of, by package and folder (esbuild's metafile), largest first.
 */

const root = join(import.meta.dirname, "..", "..")

export interface BundlePart {
  /** `effect: Schema`, `effect: http`, `client: vocabulary/a`… */
  readonly part: string
  /** Minified bytes of the part in the bundle (before gzip, which works on the whole). */
  readonly bytes: number
}

export interface BundleSize {
  readonly minified: number
  readonly gzipped: number
  readonly parts: ReadonlyArray<BundlePart>
}

/**
 * Where an input file of the bundle belongs: effect's Schema modules, its http and socket folders, the
 * rest of effect (its core), each folder of the client's package, else the file's folder.
 */
export const partOf = (input: string): string => {
  const effect = /node_modules\/effect\/dist\/(.+)$/.exec(input)?.[1]
  if (effect !== undefined) {
    if (/^(Schema\w*\.js|internal\/schema\/)/.test(effect)) return "effect: Schema"
    const folder = /^(http|socket|encoding)\//.exec(effect)?.[1]
    return folder === undefined ? "effect: core" : `effect: ${folder}`
  }
  const ours = /packages\/client\/dist\/(.+)\/[^/]+$/.exec(input)?.[1]
  if (ours !== undefined) return `client: ${ours}`
  return input.replace(/\/[^/]+$/, "") || input
}

const partsOf = (metafile: Metafile): ReadonlyArray<BundlePart> => {
  const bytes = new Map<string, number>()
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const part = partOf(input)
      bytes.set(part, (bytes.get(part) ?? 0) + bytesInOutput)
    }
  }
  return [...bytes].map(([part, n]) => ({ part, bytes: n })).filter((p) => p.bytes > 0).sort((a, b) => b.bytes - a.bytes)
}

/** Bundles `source` (a module, resolved from the repository's root, as an app there would be). */
export const browserBundleSize = async (source: string): Promise<BundleSize> => {
  const result = await build({
    stdin: { contents: source, resolveDir: root, loader: "ts", sourcefile: "app.ts" },
    bundle: true,
    minify: true,
    format: "esm",
    target: ["chrome120", "firefox120", "safari17"],
    platform: "browser",
    legalComments: "none",
    write: false,
    metafile: true,
    logLevel: "silent"
  })
  const code = result.outputFiles[0]?.contents ?? new Uint8Array()
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length, parts: partsOf(result.metafile) }
}

/** `effect: core 98.1 kB (38 %), client: vocabulary/a 9.2 kB (4 %), …`: the parts of at least `least` of the whole. */
export const breakdown = (size: BundleSize, least = 0.01): string =>
  size.parts
    .filter((p) => p.bytes >= least * size.minified)
    .map((p) => `${p.part} ${(p.bytes / 1_000).toFixed(1)} kB (${Math.round((100 * p.bytes) / size.minified)} %)`)
    .join(", ")
