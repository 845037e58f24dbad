import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import { roundTrips } from "../vocabulary/roundTripLaws.ts"

/**
 * docs/laws.md lists every law `npm run laws` runs, and nothing it does not: the names registered with
 * `law("…"` in the `*.laws.test.ts` files and the round trip of each wire shape, against the names the
 * page gives (the first cell of a table row, or a `round trip: …` in backticks).
 */
const root = join(import.meta.dirname, "../..")

const lawFiles = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".laws.test.ts"))
    .map((entry) => join(entry.parentPath, entry.name))

const registered = [
  ...lawFiles(join(root, "test")).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/^law\("([^"]+)"/gm)].map(([, name = ""]) => name)
  ),
  ...roundTrips.map(({ name }) => `round trip: ${name}`)
].sort()

const page = readFileSync(join(root, "docs/laws.md"), "utf8")
const listed = [
  ...[...page.matchAll(/^\| `([^`]+)` \|/gm)].map(([, name = ""]) => name),
  ...[...page.matchAll(/`(round trip: [^`]+)`/g)].map(([, name = ""]) => name)
].sort()

it("docs/laws.md lists every law, and nothing else", () => {
  expect(registered.length).toBeGreaterThan(0)
  expect(listed).toEqual(registered)
})
