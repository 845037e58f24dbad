import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { anyService } from "../../src/domain/index.ts"
import { ServiceOnRead, toService } from "../../src/gateway/HomeResources.ts"
import { buildIndex, randomHome } from "./randomHome.ts"

/**
 * A service whose channels are made when read (src/gateway/HomeResources.ts, what the whole home's listing
 * holds) shows as the service made at once does: the same keys in the same order, the same JSON, the same
 * spread; its channels are those of the home when they are read.
 */
describe("ServiceOnRead", () => {
  it("is the service made at once, to JSON, to a spread and to a comparison", () => {
    fc.assert(fc.property(randomHome, (home) => {
      const index = buildIndex(home)
      for (const record of index.selectServices([anyService])) {
        const onRead = new ServiceOnRead(index, record)
        const atOnce = toService(index, record)
        expect(Object.keys(onRead)).toEqual(Object.keys(atOnce))
        expect(JSON.stringify(onRead)).toBe(JSON.stringify(atOnce))
        expect({ ...onRead }).toStrictEqual(atOnce)
      }
    }), { numRuns: 100 })
  })

  it("makes its channels from the home as it is when they are read", () => {
    fc.assert(fc.property(randomHome, (home) => {
      const index = buildIndex(home)
      const [record] = index.selectServices([anyService])
      const [channel] = record === undefined ? [] : [...record.getters, ...record.setters]
      if (record === undefined || channel === undefined) return
      const onRead = new ServiceOnRead(index, record)
      index.removeService(record.id)
      expect([...onRead.getters, ...onRead.setters]).toEqual([])
    }), { numRuns: 100 })
  })
})
