import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { anyService } from "../../src/domain/index.ts"
import { buildIndex, randomHome } from "./randomHome.ts"

describe("home index", () => {
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
