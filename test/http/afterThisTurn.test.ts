import { describe, expect, it } from "vitest"
import { afterThisTurn } from "../../src/http/AfterThisTurn.ts"

const nextImmediate = () => new Promise((resolve) => setImmediate(resolve))

describe("afterThisTurn", () => {
  it("runs the callbacks of a turn after it, in the order asked, and those asked meanwhile in the next turn", async () => {
    const ran: Array<string> = []
    afterThisTurn(() => {
      ran.push("a")
      afterThisTurn(() => ran.push("d"))
    })
    afterThisTurn(() => ran.push("b"))
    afterThisTurn(() => ran.push("c"))
    expect(ran).toEqual([])
    await nextImmediate()
    expect(ran).toEqual(["a", "b", "c"])
    await nextImmediate()
    expect(ran).toEqual(["a", "b", "c", "d"])
  })
})
