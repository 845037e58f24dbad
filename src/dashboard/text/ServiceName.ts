import * as Option from "effect/Option"
import type { ServiceView } from "../../client/index.ts"

/** The name a service's device gives itself (vocabulary B's `properties.name`), if it gives one that is not blank. */
export const givenName = (service: ServiceView): string | undefined =>
  Option.getOrUndefined(service.properties)?.["name"]?.trim() || undefined

/** How a service is named to a person: its given name, else its id. */
export const serviceName = (service: ServiceView): string => givenName(service) ?? service.id
