import type { ChannelId } from "../../client/index.ts"
import type { Device } from "../api/Devices.ts"

/**
 * Which comings and goings of getters the services last read already show. The watch announces every
 * getter as it registers, and again after a reconnection; reading the services again for those would
 * only read what the page has. A change the last reading does not show (a getter added that it lacks,
 * one removed that it has), or one seen while a reading was on its way, asks for another reading.
 */
export interface GetterChange {
  readonly channel: ChannelId
  readonly added: boolean
}

/** The getters a reading of the services shows. */
export const gettersShown = (services: ReadonlyArray<Device>): ReadonlySet<ChannelId> =>
  new Set(services.flatMap((service) => service.getters.map((getter) => getter.id)))

/** Whether `shown` (a reading's getters; undefined while the first is on its way) already shows `change`. */
export const showsChange = (shown: ReadonlySet<ChannelId> | undefined, change: GetterChange): boolean =>
  shown !== undefined && shown.has(change.channel) === change.added
