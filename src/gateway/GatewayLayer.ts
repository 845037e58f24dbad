import { Layer } from "effect"
import { Database } from "../store/Database.ts"
import { TagRepository } from "../store/TagRepository.ts"
import { Dispatch } from "./Dispatch.ts"
import { Registry } from "./Registry.ts"
import { Tags } from "./Tags.ts"

/** The canonical gateway: registry, tags and dispatch over the database. Needs GatewayConfig. */
export const GatewayLayer = Layer.mergeAll(Dispatch.layer, Tags.layer).pipe(
  Layer.provideMerge(Registry.layer),
  Layer.provideMerge(TagRepository.layer),
  Layer.provideMerge(Database.layer)
)
