import { byId } from "../domain/ListOrder.ts"
import { anyService, type ServiceSelector } from "../domain/Selector.ts"
import type { Service } from "../domain/Service.ts"
import type { HomeIndex } from "./HomeIndex.ts"
import { ServiceOnRead } from "./HomeResources.ts"

/**
 * The services of the whole home, listed once per change of the home (`HomeStore.version`: a device,
 * a value, a tag): every listing of everything (a request without a body, by a caller without a scope)
 * gets this very list until the home changes, and the routes write it once (Handlers). Its services make
 * their channels when they are read (`ServiceOnRead`): a large home's listing, streamed as it is written,
 * never holds them all. A request that names selectors is answered afresh: nothing is kept per request.
 */
export const wholeHomeServices = (index: HomeIndex): () => ReadonlyArray<Service> => {
  let listed: { readonly version: number; readonly services: ReadonlyArray<Service> } | undefined
  return () => {
    if (listed === undefined || listed.version !== index.version) {
      // Every connected service, as `selectServices([anyService])` answers, without asking each whether it matches.
      const services = [...index.everyService()].sort(byId)
      listed = { version: index.version, services: services.map((s) => new ServiceOnRead(index, s)) }
    }
    return listed.services
  }
}

/** Whether `selectors` ask for every service as a request without a body does: the very selector, not one equal to it. */
export const isEveryService = (selectors: ReadonlyArray<ServiceSelector>): boolean =>
  selectors.length === 1 && selectors[0] === anyService
