import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { makeArrivals } from "../../bench/watch/Arrivals.ts"

/** The watch benchmark's record of arrivals (bench/watch/Arrivals.ts) gives back what it was given. */
describe("Arrivals", () => {
  it("gives back every pair pushed, in order, however far it grew past its first capacity", () =>
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.tuple(fc.double({ noNaN: true }), fc.double({ noNaN: true })), { maxLength: 100 }),
        (capacity, pushed) => {
          const arrivals = makeArrivals(capacity)
          for (const [sent, arrived] of pushed) arrivals.push(sent, arrived)
          const read: Array<[number, number]> = []
          arrivals.forEach((sent, arrived) => {
            read.push([sent, arrived])
          })
          expect(read).toEqual(pushed)
        }
      )
    ))

  it("forgets everything on clear, and records again after", () => {
    const arrivals = makeArrivals(2)
    for (let i = 0; i < 5; i++) arrivals.push(i, i + 0.5)
    arrivals.clear()
    arrivals.push(7, 7.25)
    const read: Array<[number, number]> = []
    arrivals.forEach((sent, arrived) => {
      read.push([sent, arrived])
    })
    expect(read).toEqual([[7, 7.25]])
  })
})
