import { execFileSync } from "node:child_process"
import { rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/**
 * Builds the client's package (packages/client, `@home-gateway/client`) into packages/client/dist: the
 * gateway's sources the client reaches, compiled with their declarations (packages/client/tsconfig.json).
 * The package carries no OpenAPI document, so its src/vocabulary/common/Docs.ts says `DOCS = false`, as the
 * dashboard's build does: an app's minifier then folds away every text of the API's documentation. Run by
 * `npm run build`, after the compiler; `npm run pack:client` packs the result into dist/.
 */

const root = join(import.meta.dirname, "..", "..")
const packageRoot = join(root, "packages", "client")

rmSync(join(packageRoot, "dist"), { recursive: true, force: true })
execFileSync(join(root, "node_modules", ".bin", "tsc"), ["-p", join(packageRoot, "tsconfig.json")], { stdio: "inherit" })
writeFileSync(join(packageRoot, "dist", "vocabulary", "common", "Docs.js"), "export const DOCS = false;\n")
