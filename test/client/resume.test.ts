import { describe, expect, it } from "vitest"
import { ChannelId, type ClientWatchEvent, createClient, everyGetter } from "../../src/client/index.ts"
import { startGateway } from "../support/gatewayOverHttp.ts"
import { nodePlatform, promptly, readUntil } from "./clients.ts"

/**
 * The watch outlives the gateway: stopped, its home changed meanwhile, started again on the same data
 * folder and port, the client's stream goes on with `Resynced`, then what it missed: a getter that left,
 * one that joined, and the current value of every watched getter.
 */

const service = (name: string, kind: string, value: unknown) => ({
  id: `service:${name}@test`,
  getters: [{ id: `getter:${name}@test`, kind, value }],
  setters: []
})

const before = { services: [service("kept", "OnOff", { OnOff: "On" }), service("leaving", "OpenClosed", { OpenClosed: "Open" })] }
const after = { services: [service("kept", "OnOff", { OnOff: "Off" }), service("joined", "OnOff", { OnOff: "Off" })] }

const has = (seen: ReadonlyArray<ClientWatchEvent>, expected: ClientWatchEvent): boolean =>
  seen.some((event) => JSON.stringify(event) === JSON.stringify(expected))

describe.each(["a", "b"] as const)("a watch of the client in vocabulary %s, across a restart of the gateway", (vocabulary) => {
  it("resumes with Resynced, the getters that left and joined, and every current value", async () => {
    let gateway = await startGateway(before)
    const { token, dataDir } = gateway
    const port = Number(new URL(gateway.baseUrl).port)
    const client = createClient({ url: gateway.baseUrl, token, vocabulary, platform: nodePlatform, reconnect: promptly })
    const events = client.watch([{ selector: everyGetter, values: { _tag: "Always" }, topology: true, initialValues: false }])[Symbol.asyncIterator]()
    const seen: Array<ClientWatchEvent> = []
    try {
      await readUntil(events, seen, (s) => s.filter((e) => e._tag === "ChannelAdded").length === 2)
      await gateway.close()
      // Started again on its data folder and port, its home file rewritten meanwhile.
      gateway = await startGateway(after, { dataDir, port })
      const gap = seen.length
      const missed: ReadonlyArray<ClientWatchEvent> = [
        { _tag: "ChannelRemoved", channel: ChannelId.make("getter:leaving@test") },
        { _tag: "ChannelAdded", channel: ChannelId.make("getter:joined@test") },
        { _tag: "ValueChanged", channel: ChannelId.make("getter:kept@test"), value: { _tag: "OnOff", state: "Off" } },
        { _tag: "ValueChanged", channel: ChannelId.make("getter:joined@test"), value: { _tag: "OnOff", state: "Off" } }
      ]
      // Only the second session's events can complete this: the first saw neither getter:joined nor an Off.
      await readUntil(events, seen, (s) => missed.every((e) => has(s.slice(gap), e)))
      const resumed = seen.slice(gap)
      expect(resumed[0]).toEqual({ _tag: "Resynced" })
      expect(resumed.filter((e) => e._tag === "Resynced")).toHaveLength(1)
      expect(resumed.filter((e) => e._tag === "ChannelAdded").map((e) => e._tag === "ChannelAdded" && e.channel)).toEqual(["getter:joined@test"])
    } finally {
      await events.return?.()
      await client.close()
      await gateway.close()
    }
  })
})
