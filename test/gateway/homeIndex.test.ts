import * as fc from "fast-check"
import { Option } from "effect"
import { describe, expect, it } from "vitest"
import { AdapterId, anyChannel, anyService, ChannelId, ServiceId, Tag } from "../../src/domain/index.ts"
import { HomeIndex } from "../../src/gateway/HomeIndex.ts"
import type { NewChannelRecord } from "../../src/gateway/HomeStore.ts"
import { buildIndex, randomHome } from "./randomHome.ts"

const adapter = AdapterId.make("test")
const service = ServiceId.make("service:lamp@test")
const light = ChannelId.make("channel:light@test")
const hall = Tag.make("hall")
const kitchen = Tag.make("kitchen")
const night = Tag.make("night")

/** The lamp's device connects with its light, declaring `serviceTags` and `lightTags`. */
const connect = (index: HomeIndex, serviceTags: ReadonlyArray<Tag>, lightTags: ReadonlyArray<Tag>): void => {
  const record: NewChannelRecord = {
    id: light,
    service,
    adapter,
    mechanism: "getter",
    kind: { _tag: "Builtin", name: "OnOff" },
    kindKey: "OnOff",
    pushMs: 0,
    updated: null,
    lastSeen: null,
    lastValue: Option.none(),
    declared: index.declaredChannelTags(lightTags)
  }
  index.putService({ id: service, adapter, properties: {}, getters: [light], setters: [], declared: index.declaredServiceTags(serviceTags) }, [record])
}

/** The tags the channels and services selected by each tag carry, as the index answers a selector. */
const selected = (index: HomeIndex) => ({
  channels: [hall, kitchen, night].filter((tag) => index.selectChannels([{ ...anyChannel, tags: [tag] }]).length > 0),
  services: [hall, kitchen, night].filter((tag) => index.selectServices([{ ...anyService, tags: [tag] }]).length > 0)
})

describe("home index", () => {
  it("takes the tags a device declares with its records, whether its candidate indexes were built before or after", () => {
    for (const indexedFirst of [true, false]) {
      const index = new HomeIndex()
      if (indexedFirst) index.selectChannels([anyChannel])
      connect(index, [hall], [night])
      index.retagChannel(light, [kitchen], true)
      expect(selected(index)).toEqual({ channels: [kitchen, night], services: [hall] })
      // The device declares anew: the light's night tag leaves, the client's kitchen tag stays, the lamp moves.
      connect(index, [kitchen], [])
      expect(selected(index)).toEqual({ channels: [kitchen], services: [kitchen] })
      expect([...index.tagsOfChannel(light)]).toEqual([kitchen])
      // A device that leaves declares nothing; what clients put stays with the ids.
      index.removeService(service)
      expect([...index.tagsOfService(service)]).toEqual([])
      expect([...index.tagsOfChannel(light)]).toEqual([kitchen])
      connect(index, [hall], [night])
      expect(selected(index)).toEqual({ channels: [kitchen, night], services: [hall] })
    }
  })

  it("keeps the tags of a disconnected service and gives them back when it reconnects", () => {
    fc.assert(
      fc.property(randomHome, (home) => {
        const index = buildIndex(home)
        for (const service of home.services) {
          const record = index.service(service.id)
          if (record === undefined) continue
          const before = index.toService(record)
          const channels = index.removeService(service.id)
          expect(index.selectServices([{ ...anyService, tags: before.tags }]).map((s) => s.id)).not.toContain(service.id)
          index.putService(record, channels)
          expect(index.toService(record)).toEqual(before)
        }
      })
    )
  })
})
