import { describe, expect, it } from "vitest"
import { parseInFreshWorker } from "../../support/freshJsonParse.ts"

/**
 * The canary of src/vocabulary/common/EscapedJson.ts: the pinned Node's `JSON.parse` still misreads an
 * escaped object key once another text has made the hidden-class transition of a key of the same decoded
 * length. In a fresh worker, so that no earlier parse plants or hides the fault. When a Node upgrade
 * fixes V8, this fails and says so: parseJson can then be plain `JSON.parse`, and EscapedJson.ts go.
 */
const plant = String.raw`{"a":0,"\\":0}`
const victim = String.raw`{"a":0,"\n":0}`
const readRight = { tree: { object: [["a", 0], ["\n", 0]] } }
const misread = { tree: { object: [["a", 0], ["\\", 0]] } }

describe("V8's escaped-key fault", () => {
  it("is still there: after {\"a\":0,\"\\\\\":0}, JSON.parse reads {\"a\":0,\"\\n\":0} with the key \"\\\\\"", async () => {
    expect(await parseInFreshWorker([victim])).toStrictEqual([readRight]) // the text alone reads right
    const [, read] = await parseInFreshWorker([plant, victim])
    if (JSON.stringify(read) === JSON.stringify(readRight)) expect.fail("V8 fixed it: make parseJson plain JSON.parse again")
    expect(read).toStrictEqual(misread)
  })
})
