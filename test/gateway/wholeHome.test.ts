import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { anyService } from "../../src/domain/index.ts"
import { wholeHomeServices } from "../../src/gateway/WholeHome.ts"
import { buildIndex, randomHome } from "./randomHome.ts"

/** The list of every service (src/gateway/WholeHome.ts), which a request without a body and without a scope is answered with. */
describe("wholeHomeServices", () => {
  it("lists what selecting every service lists, as resources, and the same list until the home changes", () => {
    fc.assert(fc.property(randomHome, (home) => {
      // Connected last to first, so that the order of connection is not the order of the ids.
      const index = buildIndex({ services: [...home.services].reverse() })
      const everyService = wholeHomeServices(index)
      const listed = everyService()
      expect(listed).toEqual(index.selectServices([anyService]).map((record) => index.toService(record)))
      expect(everyService()).toBe(listed)
      const [first] = listed
      if (first === undefined) return
      index.removeService(first.id)
      expect(everyService().map((service) => service.id)).toEqual(listed.slice(1).map((service) => service.id))
    }), { numRuns: 200 })
  })
})
