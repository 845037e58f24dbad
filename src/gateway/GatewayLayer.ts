import { Layer } from "effect"
import { Dispatch } from "./Dispatch.ts"
import { Registry } from "./Registry.ts"
import { Tags } from "./Tags.ts"
import { Watch } from "./Watch.ts"

/**
 * The canonical gateway: registry, tags, dispatch and watching. Needs a TagStore (the core keeps no
 * data of its own: `src/main.ts` gives it the SQLite one) and GatewayConfig.
 */
export const GatewayLayer = Layer.mergeAll(Dispatch.layer, Tags.layer, Watch.layer).pipe(
  Layer.provideMerge(Registry.layer)
)
