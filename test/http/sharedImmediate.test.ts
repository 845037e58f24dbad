import { describe, expect, it } from "vitest"
import { atSharedImmediate } from "../../src/http/transport/SharedImmediate.ts"

const nextImmediate = () => new Promise((resolve) => setImmediate(resolve))

describe("atSharedImmediate", () => {
  it("runs the callbacks of a turn after it, in the order asked, and those asked meanwhile in the next turn", async () => {
    const ran: Array<string> = []
    atSharedImmediate(() => {
      ran.push("a")
      atSharedImmediate(() => ran.push("d"))
    })
    atSharedImmediate(() => ran.push("b"))
    atSharedImmediate(() => ran.push("c"))
    expect(ran).toEqual([])
    await nextImmediate()
    expect(ran).toEqual(["a", "b", "c"])
    await nextImmediate()
    expect(ran).toEqual(["a", "b", "c", "d"])
  })
})
