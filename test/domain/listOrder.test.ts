import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { byId, inOrder } from "../../src/domain/ListOrder.ts"

const items = fc.array(fc.record({ id: fc.string({ maxLength: 3 }) }), { maxLength: 12 })

describe("inOrder", () => {
  it("gives the list sorted by the order: the same items, in order, whatever order they came in", () => {
    fc.assert(fc.property(items, (list) => {
      const out = inOrder(list, byId)
      expect(out.map((item) => item.id)).toEqual(list.map((item) => item.id).sort())
      expect([...out].sort(byId)).toEqual(out)
    }))
  })

  it("hands back a list already in order as it is, and never changes the list it is given", () => {
    fc.assert(fc.property(items, (list) => {
      const before = [...list]
      const sorted = [...list].sort(byId)
      expect(inOrder(sorted, byId)).toBe(sorted)
      inOrder(list, byId)
      expect(list).toEqual(before)
    }))
  })
})
