import { Context, Effect, Layer } from "effect"
import { TagStore } from "../../src/gateway/TagStore.ts"
import { Database } from "../../src/store/Database.ts"
import { SqliteTagStore } from "../../src/store/SqliteTagStore.ts"
import type { AnyBenchCase } from "../Harness.ts"
import { tempDir } from "../support/TempDir.ts"

/** Ids tagged per iteration: a "tag everything in the living room" request. */
const ids = 200

/** A real store (a SQLite file with its fsyncs) in a temp folder that goes away with the scope. */
const tempStore = Effect.gen(function*() {
  const dataDir = yield* tempDir
  const context = yield* Layer.build(
    SqliteTagStore.pipe(
      Layer.provide(Database.layer({ dataDir }))
    )
  )
  return Context.get(context, TagStore)
})

/**
 * The ids of one iteration: never seen before, and above every earlier id. The table then grows only at
 * its end, so an iteration costs the same at the end of a run as at its start. (Putting new tags on the
 * same ids instead writes one page per id once the table is big, and the cost climbs as the run goes on.)
 */
const freshIds = (() => {
  let serial = 0
  return () => {
    const batch = String(serial++).padStart(9, "0")
    return Array.from({ length: ids }, (_, i) => `service:bench-${batch}-${String(i).padStart(6, "0")}@bench`)
  }
})()

export const cases: ReadonlyArray<AnyBenchCase> = [
  {
    name: `tag store: 1 tag on ${ids} ids`,
    acquire: Effect.map(tempStore, (repository) => ({
      baseline: {
        name: `${ids} add calls`,
        run: Effect.suspend(() =>
          Effect.forEach(freshIds(), (id) => repository.add("service", [id], ["living room"]), { discard: true })
        )
      },
      subject: {
        name: "1 add call (1 transaction)",
        run: Effect.suspend(() => repository.add("service", freshIds(), ["living room"]))
      }
    }))
  }
]
