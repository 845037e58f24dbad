import * as Layer from "effect/Layer"
import { Dispatch, type DispatchOptions } from "./Dispatch.ts"
import { Registry } from "./Registry.ts"
import { Tags } from "./Tags.ts"
import { Watch } from "./Watch.ts"

/**
 * The canonical gateway: registry, tags, dispatch and watching. Needs a TagStore: the core keeps no
 * data of its own (`src/main.ts` gives it the SQLite one).
 */
export const layer = (options: DispatchOptions) =>
  Layer.mergeAll(Dispatch.layer(options), Tags.layer, Watch.layer).pipe(Layer.provideMerge(Registry.layer))
