import { Effect, Layer } from "effect"
import { Database } from "../store/Database.ts"
import { TagRepository } from "../store/TagRepository.ts"
import { Dispatch } from "./Dispatch.ts"
import { HealthConditions } from "./HealthConditions.ts"
import { Registry } from "./Registry.ts"
import { Tags } from "./Tags.ts"
import { Watch } from "./Watch.ts"

/** `/health` says so when the database cannot be written or is damaged. */
const databaseHealth = Layer.effectDiscard(Effect.gen(function*() {
  const { add } = yield* HealthConditions
  yield* add((yield* Database).trouble)
}))

/**
 * The canonical gateway: registry, tags, dispatch and watching over the database, and the conditions
 * `/health` reports. Needs GatewayConfig.
 */
export const GatewayLayer = Layer.mergeAll(Dispatch.layer, Tags.layer, Watch.layer, databaseHealth).pipe(
  Layer.provideMerge(Registry.layer),
  Layer.provideMerge(TagRepository.layer),
  Layer.provideMerge(Database.layer),
  Layer.provideMerge(HealthConditions.layer)
)
