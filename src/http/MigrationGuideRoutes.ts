import { existsSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Effect from "effect/Effect"
import { migrationGuide } from "../api/Documentation.ts"
import { bindGroup } from "./Handlers.ts"
import { NotFound } from "./HttpError.ts"
import { migrationGuidePath } from "./VocabularyADeprecation.ts"

/**
 * The guide's file in the installation: the `docs` folder at the root of the package, which is two
 * folders above this module in the sources (src/http) and three in the build (dist/src/http).
 */
const guideFile = (): string | undefined => {
  const here = dirname(fileURLToPath(import.meta.url))
  return [join(here, "..", ".."), join(here, "..", "..", "..")]
    .map((root) => join(root, migrationGuidePath))
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
