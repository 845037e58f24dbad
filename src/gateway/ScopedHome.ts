import * as Option from "effect/Option"
import type { ChannelId } from "../domain/Identifier.ts"
import { type TokenScope, scopeChannelSelectors, scopeServiceSelectors } from "../domain/Access.ts"
import type { HomeView } from "./HomeIndex.ts"
import type { ChannelRecord, ServiceRecord } from "./HomeStore.ts"

/**
 * The home as a caller with this scope sees it (docs/auth.md, "Scoped tokens"): the channels the scope
 * reaches, and the services holding one of them, each with only those. The other channels do not exist
 * in it: every question it answers (what a selector selects, whether an id names anything, what a
 * service holds) is answered as on the home with them removed. No scope: the whole home.
 *
 * A service selector's channel requirements (`getters` / `setters`) are met only by channels in scope,
 * which an AND of selectors cannot say (a requirement would have to become an OR over the scope's
 * selectors): services are selected on the whole home by `scopeServiceSelectors`, which finds every
 * answer and maybe more, then checked again with only their channels in scope.
 */
export const homeFor = (home: HomeView, scope: Option.Option<TokenScope>): HomeView =>
  Option.isNone(scope) ? home : scopedHome(home, scope.value)

const scopedHome = (home: HomeView, scope: TokenScope): HomeView => {
  const reaches = (channel: ChannelRecord): boolean => scope.channels.some((selector) => home.channelMatches(selector, channel))
  const channel = (id: ChannelId): ChannelRecord | undefined => {
    const record = home.channel(id)
    return record !== undefined && reaches(record) ? record : undefined
  }
  /** The service with only its channels in scope; `undefined` when it holds none. */
  const restricted = (service: ServiceRecord): ServiceRecord | undefined => {
    const getters = service.getters.filter((id) => channel(id) !== undefined)
    const setters = service.setters.filter((id) => channel(id) !== undefined)
    return getters.length + setters.length === 0 ? undefined : { ...service, getters, setters }
  }
  const inScope = Option.some(scope)
  return {
    channel,
    service: (id) => {
      const record = home.service(id)
      return record === undefined ? undefined : restricted(record)
    },
    tagsOfService: (id) => home.tagsOfService(id),
    tagsOfChannel: (id) => home.tagsOfChannel(id),
    // A channel selector ANDed with the scope selects exactly what it selects in scope.
    selectChannels: (selectors) => home.selectChannels(scopeChannelSelectors(selectors, inScope)),
    selectServices: (selectors) =>
      home.selectServices(scopeServiceSelectors(selectors, inScope)).flatMap((record) => {
        const service = restricted(record)
        return service !== undefined && selectors.some((selector) => home.serviceMatches(selector, service)) ? [service] : []
      }),
    channelMatches: (selector, record) => reaches(record) && home.channelMatches(selector, record),
    serviceMatches: (selector, record) => {
      const service = restricted(record)
      return service !== undefined && home.serviceMatches(selector, service)
    },
    toChannel: (record) => home.toChannel(record),
    toService: (record) => home.toService(restricted(record) ?? { ...record, getters: [], setters: [] }),
    get version() {
      return home.version
    },
    get topologyVersion() {
      return home.topologyVersion
    }
  }
}
