import { join } from "node:path"
import { projectRoot } from "./projectRoot.ts"

/**
 * Environment for the Node programs and threads that tests run from TypeScript and that load Effect (the
 * compiled decoder's thread, the docs' programs): Node keeps V8's compiled code of the modules they load,
 * and the code it strips the types from, in node_modules/.cache, so that a run does not compile them
 * again (a third of the compiled decoder's start: 1.1 s of CPU against 0.7, measured). Node checks each
 * entry against its module's source, so an entry never outlives a change. The bin enables its own cache
 * beside the bundle (src/cli/bin.ts); this would take its place, so spawned gateways are not given it.
 * (tsc and openapi-typescript spend their time checking, not loading: measured, no gain.)
 */
export const compileCacheEnv: Readonly<Record<string, string>> = {
  NODE_COMPILE_CACHE: join(projectRoot, "node_modules", ".cache", "test-compile-cache")
}
