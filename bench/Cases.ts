import * as answerHead from "./cases/answerHead.ts"
import * as canonicalCalls from "./cases/canonicalCalls.ts"
import * as clientSize from "./cases/clientSize.ts"
import * as dashboardLargeHome from "./cases/dashboardLargeHome.ts"
import * as dashboardRender from "./cases/dashboardRender.ts"
import * as deepBody from "./cases/deepBody.ts"
import * as discovery from "./cases/discovery.ts"
import * as loopback from "./cases/loopback.ts"
import * as registration from "./cases/registration.ts"
import * as replicas from "./cases/replicas.ts"
import * as requestPath from "./cases/requestPath.ts"
import * as selectorIndex from "./cases/selectorIndex.ts"
import * as sendBatching from "./cases/sendBatching.ts"
import * as startup from "./cases/startup.ts"
import * as tagStore from "./cases/tagStore.ts"
import * as tokenListing from "./cases/tokenListing.ts"
import * as watchFanOut from "./cases/watchFanOut.ts"
import type { AnyBenchCase } from "./Harness.ts"

/** Every benchmark module, in the table's order; add a module of `bench/cases/` here. */
const modules: ReadonlyArray<{ readonly cases: ReadonlyArray<AnyBenchCase> }> = [
  requestPath,
  answerHead,
  canonicalCalls,
  loopback,
  deepBody,
  tagStore,
  tokenListing,
  selectorIndex,
  sendBatching,
  watchFanOut,
  registration,
  startup,
  dashboardRender,
  clientSize,
  dashboardLargeHome,
  discovery,
  replicas
]

export const allCases: ReadonlyArray<AnyBenchCase> = modules.flatMap((m) => m.cases)

/** The cases whose name contains `filter` (all for ""). */
export const casesNamed = (filter: string): ReadonlyArray<AnyBenchCase> => allCases.filter((c) => c.name.includes(filter))
