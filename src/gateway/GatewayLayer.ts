import { Layer } from "effect"
import { Database } from "../store/Database.ts"
import { TagRepository } from "../store/TagRepository.ts"
import { Dispatch } from "./Dispatch.ts"
import { Registry } from "./Registry.ts"
import { Tags } from "./Tags.ts"
import { Watch } from "./Watch.ts"

/** The canonical gateway: registry, tags, dispatch and watching over the database. Needs GatewayConfig. */
export const GatewayLayer = Layer.mergeAll(Dispatch.layer, Tags.layer, Watch.layer).pipe(
  Layer.provideMerge(Registry.layer),
  Layer.provideMerge(TagRepository.layer),
  Layer.provideMerge(Database.layer)
)
