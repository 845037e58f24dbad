import * as Option from "effect/Option"
import type { Device } from "../api/Devices.ts"

/** The name a service's device gives itself (vocabulary B's `properties.name`), if it gives one that is not blank. */
export const givenName = (service: Device): string | undefined =>
  Option.getOrUndefined(service.properties)?.["name"]?.trim() || undefined

/** How a service is named to a person: its given name, else its id. */
export const serviceName = (service: Device): string => givenName(service) ?? service.id
