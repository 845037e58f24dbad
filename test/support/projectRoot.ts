import { existsSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

/**
 * The project's folder, ending in `/`: the nearest above this file that holds package.json. This file
 * runs from test/support in the tests, and from dist/test/support in the bench (bench/cases/replicas.ts).
 */
export const projectRoot: string = (() => {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir)
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`)
    dir = parent
  }
  return `${dir}/`
})()
