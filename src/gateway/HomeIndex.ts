import type { Channel } from "../domain/Channel.ts"
import type { ChannelSelector, ServiceSelector } from "../domain/Selector.ts"
import type { Service } from "../domain/Service.ts"
import { toChannel, toService } from "./HomeResources.ts"
import { type ChannelRecord, HomeStore, type ServiceRecord } from "./HomeStore.ts"
import { channelMatches, selectChannels, selectServices, serviceMatches } from "./SelectorPlan.ts"

/** What the gateway's services may do with the home: read it and select in it. Only the Registry changes it. */
export type HomeView = Pick<
  HomeIndex,
  | "service"
  | "channel"
  | "tagsOfService"
  | "tagsOfChannel"
  | "selectChannels"
  | "selectServices"
  | "channelMatches"
  | "serviceMatches"
  | "toChannel"
  | "toService"
  | "version"
  | "topologyVersion"
>

/**
 * The connected home in memory (HomeStore), with selectors answered from its indexes (SelectorPlan) and
 * its records shown as resources (HomeResources). The Registry holds the one index and changes it; the
 * gateway's other services read it as a HomeView.
 */
export class HomeIndex extends HomeStore {
  /** The connected channels any selector matches (OR), sorted by id. `[]` matches nothing. */
  selectChannels(selectors: ReadonlyArray<ChannelSelector>): ReadonlyArray<ChannelRecord> {
    return selectChannels(this, selectors)
  }

  /** The connected services any selector matches (OR), sorted by id. */
  selectServices(selectors: ReadonlyArray<ServiceSelector>): ReadonlyArray<ServiceRecord> {
    return selectServices(this, selectors)
  }

  channelMatches(selector: ChannelSelector, channel: ChannelRecord): boolean {
    return channelMatches(this, selector, channel)
  }

  serviceMatches(selector: ServiceSelector, service: ServiceRecord): boolean {
    return serviceMatches(this, selector, service)
  }

  toChannel(record: ChannelRecord): Channel {
    return toChannel(this, record)
  }

  toService(record: ServiceRecord): Service {
    return toService(this, record)
  }
}
