import { existsSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Effect from "effect/Effect"
import { migrationGuide } from "../../api/Documentation.ts"
import { bindGroup } from "../routing/Handlers.ts"
import { NotFound } from "../routing/HttpError.ts"
import { migrationGuidePath } from "../observation/VocabularyADeprecation.ts"

/**
 * The guide's file in the installation: the `docs` folder at the root of the package, the nearest
 * folder above this module that has it (src/http/routes in the sources, dist/src/http/routes in the
 * build, dist when bundled into dist/gateway.js).
 */
const guideFile = (): string | undefined => {
  const here = dirname(fileURLToPath(import.meta.url))
  return [1, 2, 3, 4]
    .map((up) => join(here, ...Array.from({ length: up }, () => ".."), migrationGuidePath))
    .find((file) => existsSync(file))
}

/** Read once, at its first request. */
let guide: string | undefined

/** `GET /docs/migrating-a-to-b.md`, without a token: where A's `Link` points when A is deprecated. */
export const migrationGuideRoutes = bindGroup(migrationGuide, {
  get_migration_guide: () =>
    Effect.suspend(() => {
      const file = guide === undefined ? guideFile() : undefined
      if (file !== undefined) guide = readFileSync(file, "utf8")
      return guide === undefined ? Effect.fail(new NotFound({ path: migrationGuidePath })) : Effect.succeed(guide)
    })
})
