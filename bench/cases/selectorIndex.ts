import { Effect, Option } from "effect"
import type { Channel } from "../../src/domain/Channel.ts"
import { exactly } from "../../src/domain/Constraint.ts"
import { AdapterId, ChannelId, ServiceId, Tag } from "../../src/domain/Identifier.ts"
import { builtinKind, kindKey } from "../../src/domain/Kind.ts"
import { anyService, type ChannelSelector, channelSelector, type ServiceSelector, serviceSelector } from "../../src/domain/Selector.ts"
import { anyChannelMatches, anyServiceMatches } from "../../src/domain/SelectorMatch.ts"
import type { Service } from "../../src/domain/Service.ts"
import { HomeIndex } from "../../src/gateway/HomeIndex.ts"
import type { ChannelRecord } from "../../src/gateway/HomeStore.ts"
import type { AnyBenchCase } from "../Harness.ts"
import {
  channelNeedle as needleOfChannels,
  channelsPerService,
  needles,
  plannedService,
  serviceNeedle as needleOfServices
} from "../support/GeneratedHome.ts"

/**
 * The claim: a query's cost follows the size of its answer, not of the home. The homes are those of
 * bench/support/GeneratedHome.ts, indexed here directly (no gateway, no home file).
 */
const bigHome = 10_000
const smallHome = 100

const adapter = AdapterId.make("bench@gateway.local")
const channelNeedle = Tag.make(needleOfChannels)
const serviceNeedle = Tag.make(needleOfServices)
const onOff = builtinKind("OnOff")

/** `services` services of the generated home, in a HomeIndex. */
const buildHome = (services: number): HomeIndex => {
  const index = new HomeIndex()
  for (let i = 0; i < services; i++) {
    const planned = plannedService(i, services)
    const service = ServiceId.make(planned.id)
    const records = planned.channels.map((c): ChannelRecord => {
      const kind = builtinKind(c.kind)
      return {
        id: ChannelId.make(c.id),
        service,
        adapter,
        mechanism: c.mechanism,
        kind,
        kindKey: kindKey(kind),
        pushMs: 0,
        updated: null,
        lastSeen: null,
        lastValue: Option.none()
      }
    })
    index.putService(
      {
        id: service,
        adapter,
        properties: {},
        getters: records.filter((r) => r.mechanism === "getter").map((r) => r.id),
        setters: records.filter((r) => r.mechanism === "setter").map((r) => r.id)
      },
      records
    )
    index.retagService(service, planned.tags.map((t) => Tag.make(t)), true)
    records.forEach((record, j) => {
      index.retagChannel(record.id, (planned.channels[j]?.tags ?? []).map((t) => Tag.make(t)), true)
    })
  }
  return index
}

/** The home as resources, the shape the plain matching functions read: what a gateway without indexes would scan. */
interface Resources {
  readonly services: ReadonlyArray<Service>
  readonly channels: ReadonlyArray<{ readonly channel: Channel; readonly serviceTags: ReadonlyArray<Tag> }>
}

const resourcesOf = (index: HomeIndex): Resources => {
  const services = index.selectServices([anyService]).map((record) => index.toService(record))
  const channels = services.flatMap((s) => [...s.getters, ...s.setters].map((channel) => ({ channel, serviceTags: s.tags })))
  return { services, channels }
}

const scanChannels = (home: Resources, selectors: ReadonlyArray<ChannelSelector>): Array<ChannelId> => {
  const out: Array<ChannelId> = []
  for (const { channel, serviceTags } of home.channels) {
    if (anyChannelMatches(selectors, channel, serviceTags)) out.push(channel.id)
  }
  return out
}

const scanServices = (home: Resources, selectors: ReadonlyArray<ServiceSelector>): Array<ServiceId> => {
  const out: Array<ServiceId> = []
  for (const service of home.services) {
    if (anyServiceMatches(selectors, service)) out.push(service.id)
  }
  return out
}

const channelIds = (index: HomeIndex, selectors: ReadonlyArray<ChannelSelector>): Array<ChannelId> =>
  index.selectChannels(selectors).map((c) => c.id)

/**
 * A benchmark of a wrong answer proves nothing: checked once, outside timing, that both sides answer
 * the same ids, and that the answer has the size the case is about.
 */
const checkSame = (
  what: string,
  expected: ReadonlyArray<string>,
  actual: ReadonlyArray<string>,
  size: (n: number) => boolean
): Effect.Effect<void, Error> => {
  const a = [...expected].sort()
  const b = [...actual].sort()
  if (a.length !== b.length || a.some((id, i) => id !== b[i])) {
    return Effect.fail(new Error(`${what}: the two sides answer different ids (${a.length} vs ${b.length})`))
  }
  return size(a.length) ? Effect.void : Effect.fail(new Error(`${what}: unexpected answer size ${a.length}`))
}

const needleQuery = [channelSelector({ tags: [channelNeedle] })]
const serviceNeedleQuery = [serviceSelector({ tags: [serviceNeedle] })]
const onOffQuery = [channelSelector({ kind: exactly(onOff) })]
const bigChannels = bigHome * channelsPerService
const aboutAThird = (n: number) => Math.abs(n - bigChannels / 3) <= 1

/** Index against scan on the big home, for one channel query. */
const channelIndexVsScan = (name: string, selectors: ReadonlyArray<ChannelSelector>, size: (n: number) => boolean): AnyBenchCase => ({
  name,
  acquire: Effect.gen(function*() {
    const index = buildHome(bigHome)
    const home = resourcesOf(index)
    yield* checkSame(name, scanChannels(home, selectors), channelIds(index, selectors), size)
    return {
      baseline: { name: "scan with anyChannelMatches", run: Effect.sync(() => scanChannels(home, selectors)) },
      subject: { name: "HomeIndex.selectChannels", run: Effect.sync(() => index.selectChannels(selectors)) }
    }
  })
})

export const cases: ReadonlyArray<AnyBenchCase> = [
  channelIndexVsScan("selector index: tag query, 100k channels: index vs scan", needleQuery, (n) => n === needles),
  {
    name: "selector index: tag query, same result size: 1k-channel home vs 100k-channel home",
    acquire: Effect.gen(function*() {
      const small = buildHome(smallHome)
      const big = buildHome(bigHome)
      const smallAnswer = channelIds(small, needleQuery)
      const bigAnswer = channelIds(big, needleQuery)
      if (smallAnswer.length !== needles || bigAnswer.length !== needles) {
        return yield* Effect.fail(new Error(`answers of ${smallAnswer.length} and ${bigAnswer.length} channels, not ${needles} each`))
      }
      return {
        baseline: { name: "index, 1k channels", run: Effect.sync(() => small.selectChannels(needleQuery)) },
        subject: { name: "index, 100k channels", run: Effect.sync(() => big.selectChannels(needleQuery)) }
      }
    })
  },
  {
    name: "selector index: service tag query, 10k services: index vs scan",
    acquire: Effect.gen(function*() {
      const index = buildHome(bigHome)
      const home = resourcesOf(index)
      const indexed = index.selectServices(serviceNeedleQuery).map((s) => s.id)
      yield* checkSame("service tag query", scanServices(home, serviceNeedleQuery), indexed, (n) => n === needles)
      return {
        baseline: { name: "scan with anyServiceMatches", run: Effect.sync(() => scanServices(home, serviceNeedleQuery)) },
        subject: { name: "HomeIndex.selectServices", run: Effect.sync(() => index.selectServices(serviceNeedleQuery)) }
      }
    })
  },
  channelIndexVsScan("selector index: kind query, a third of 100k channels: index vs scan", onOffQuery, aboutAThird)
]
