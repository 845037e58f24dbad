import { Option, Result } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ChannelId, channelSelector, exactly } from "../../src/client/index.ts"
import { type GatewayOverHttp, startGateway } from "../support/gatewayOverHttp.ts"
import { clientOf, eventsUntil } from "./clients.ts"

/**
 * The client reads the gateway's answers and frames as they were written, whatever text the process read
 * before: V8's JSON.parse, once it has read an object with a key `\` after `a` (planted below), reads the
 * next such object's escaped key of one character as `\` (src/vocabulary/common/EscapedJson.ts). B's
 * results are keyed by channel ids, which may hold a quote.
 */

const noteKind = { vendor: "acme", adapter: "notes", kind: "note", type: "Json" }
const note = { a: 0, "\"": 1 }

const home = {
  adapter: "simulator@escaped.test",
  services: [{
    id: "service:notes@esc",
    getters: [
      { id: "a", kind: "Log" },
      { id: "a\"", kind: "Log" },
      { id: "getter:note@esc", kind: noteKind, value: { Json: note } }
    ]
  }]
}

const plant = (): void => void JSON.parse(String.raw`{"a": 0, "\\": 1}`)
const byId = (id: string) => channelSelector({ id: exactly(ChannelId.make(id)), mechanism: exactly("getter") })

let gateway: GatewayOverHttp
beforeAll(async () => {
  gateway = await startGateway(home)
})
afterAll(() => gateway.close())

describe.each(["a", "b"] as const)("the client in vocabulary %s reads escaped keys as written", (vocabulary) => {
  it("in the results of a fetch, keyed by channel ids, and in a Json value", async () => {
    const client = clientOf(gateway, vocabulary)
    plant()
    const results = await client.fetch([byId("a"), byId("a\""), byId("getter:note@esc")])
    expect(results.map((r) => r.key)).toEqual(["a", "a\"", "getter:note@esc"])
    expect(results.at(-1)?.result).toEqual(Result.succeed(Option.some({ _tag: "Json", value: note })))
    await client.close()
  })

  it("in the frames of a watch", async () => {
    const client = clientOf(gateway, vocabulary)
    plant()
    const registration = [{ selector: byId("getter:note@esc"), values: { _tag: "Always" } as const, topology: true, initialValues: true }]
    const events = await eventsUntil(client.watch(registration), (e) => e._tag === "ValueChanged")
    expect(events.at(-1)).toEqual({ _tag: "ValueChanged", channel: "getter:note@esc", value: { _tag: "Json", value: note } })
    await client.close()
  })
})
