import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import * as Path from "effect/Path"
import { HttpServerResponse } from "effect/http"
import type { IncomingRequestShape } from "../routing/IncomingRequest.ts"

/**
 * The dashboard (docs/dashboard.md), served from the folder `npm run build` makes (dist/dashboard): its
 * pages (`index.html` at `/`, any other `<name>.html` at `/<name>`), their assets at `/assets/<name>`,
 * and its icon at `/favicon.ico` (an SVG: a browser asks every site for that path, and takes an SVG there).
 * The files and their gzipped bytes (`<name>.gz`, compressed by the build) are read once, when the
 * gateway starts: a request is a map lookup. Assets are
 * named by their content's hash, so a browser may keep them for good; a page is checked again each time,
 * so that a new build is seen at once.
 */

/** A file of the dashboard as it is answered: its bytes, gzipped, and its headers. */
interface StaticFile {
  readonly body: Uint8Array
  readonly gzipped: Uint8Array
  readonly contentType: string
  readonly headers: Readonly<Record<string, string>>
}

/** The dashboard's files by the path they are answered at. */
export type DashboardFiles = ReadonlyMap<string, StaticFile>

/**
 * A page runs only the bundle and the style sheet it names, talks only to the gateway (its API and
 * watch socket), and cannot be framed. No inline script or style.
 */
const pagePolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join("; ")

const page = { "cache-control": "no-cache", "content-security-policy": pagePolicy }
const asset = { "cache-control": "public, max-age=31536000, immutable" }
/** Not named by its content's hash: checked again, as a page is. */
const icon = { "cache-control": "no-cache" }

const assetTypes: Readonly<Record<string, string>> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8"
}

/** The file at `file` as it is served, with its gzipped bytes from `<file>.gz`. */
const served = (file: string, contentType: string, headers: Readonly<Record<string, string>>) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const [body, gzipped] = yield* Effect.all([fs.readFile(file), fs.readFile(`${file}.gz`)])
    return { body, gzipped, contentType, headers } satisfies StaticFile
  })

/**
 * The dashboard in `dir`; none, said once in the log, if it has not been built there (the gateway then
 * serves its API alone, and `/` is a 404 as any unknown path).
 */
export const loadDashboard = (dir: string): Effect.Effect<Option.Option<DashboardFiles>, never, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const assetsDir = path.join(dir, "assets")
    const files = new Map<string, StaticFile>()
    files.set("/", yield* served(path.join(dir, "index.html"), "text/html; charset=utf-8", page))
    for (const name of yield* fs.readDirectory(dir)) {
      if (name !== "index.html" && path.extname(name) === ".html") {
        files.set(`/${path.basename(name, ".html")}`, yield* served(path.join(dir, name), "text/html; charset=utf-8", page))
      }
    }
    files.set("/favicon.ico", yield* served(path.join(dir, "favicon.svg"), "image/svg+xml", icon))
    for (const name of yield* fs.readDirectory(assetsDir)) {
      const type = assetTypes[path.extname(name)]
      if (type !== undefined) files.set(`/assets/${name}`, yield* served(path.join(assetsDir, name), type, asset))
    }
    return Option.some<DashboardFiles>(files)
  }).pipe(
    Effect.catchTag("PlatformError", (error) =>
      Effect.as(Effect.logWarning(`no dashboard served: ${dir} has none (${error.message}); \`npm run build\` makes it`), Option.none()))
  )

/** Whether the client takes gzip (`Accept-Encoding`, without weighing `q`: every browser takes it). */
const takesGzip = (accept: string | undefined): boolean => accept !== undefined && /\bgzip\b/i.test(accept)

/** No dashboard: every request is the app's. */
const noFile = (): undefined => undefined

/**
 * The answer to `request` from the dashboard's files, if it asks for one of them (GET or HEAD of its
 * path); undefined for every other request, which is the app's. Decided by a map lookup, in the
 * request handler's front (RequestHandler.ts), which reads the request anyway.
 */
export const dashboardAnswer = (files: Option.Option<DashboardFiles>) => {
  if (Option.isNone(files)) return noFile
  const byPath = files.value
  return (request: IncomingRequestShape): HttpServerResponse.HttpServerResponse | undefined => {
    if (request.method !== "GET" && request.method !== "HEAD") return undefined
    const file = byPath.get(request.path)
    if (file === undefined) return undefined
    const gzip = takesGzip(request.headers["accept-encoding"])
    const headers = gzip ? { ...file.headers, vary: "accept-encoding", "content-encoding": "gzip" } : { ...file.headers, vary: "accept-encoding" }
    return HttpServerResponse.uint8Array(gzip ? file.gzipped : file.body, { contentType: file.contentType, headers })
  }
}
