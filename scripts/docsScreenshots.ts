import { copyFileSync, mkdirSync } from "node:fs"
import { join } from "node:path"

/**
 * `npm run docs:screenshots`, after the dashboard's browser tests have run with GATEWAY_TEST_SCREENSHOTS=1 (the
 * only runs that take them): copies the screenshots docs/dashboard.md shows from the tests' ignored folder
 * (test-artifacts/dashboard) to docs/images.
 */

const root = join(import.meta.dirname, "..", "..")
const from = join(root, "test-artifacts", "dashboard")
const to = join(root, "docs", "images", "dashboard")

/** The screenshots the page shows, as the tests name them. */
const shown = ["setup-desktop.png", "login-phone.png", "home-values-desktop.png", "home-values-phone.png", "tokens-desktop.png", "migration-desktop.png"]

mkdirSync(to, { recursive: true })
for (const name of shown) copyFileSync(join(from, name), join(to, name))
process.stdout.write(`${shown.length} screenshots copied to docs/images/dashboard\n`)
