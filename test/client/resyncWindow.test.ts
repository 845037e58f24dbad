import { NodeHttpClient } from "@effect/platform-node"
import { Layer } from "effect"
import { Socket } from "effect/socket"
import { describe, expect, it } from "vitest"
import { ChannelId, channelSelector, type ClientWatchEvent, createClient, exactly, Tag, type Value, type WatchTarget } from "../../src/client/index.ts"
import { startGateway } from "../support/gatewayOverHttp.ts"
import { clientOf, promptly, readUntil } from "./clients.ts"

/**
 * What changes while the watch of the client resumes, after it knows of the gap and before its new
 * registration is in force, is not lost: the client's sockets after the first hold their registration
 * until the test has changed a value and taken a getter out of the watched set (and the gateway has
 * applied both: another watch saw them), so the registration lands after both, whatever the REST
 * side of the resync read.
 */

const getter = (name: string) => ChannelId.make(`getter:${name}@test`)

const service = (name: string) => ({
  id: `service:${name}@test`,
  getters: [{ id: `getter:${name}@test`, kind: "OnOff", tags: ["watched"], value: { OnOff: "Off" } }],
  setters: [{ id: `setter:${name}@test`, kind: "OnOff", tags: [], drives: `getter:${name}@test` }]
})

const home = { services: [service("lamp"), service("leaving"), service("sentinel")] }

const watched: WatchTarget = {
  selector: channelSelector({ mechanism: exactly("getter"), tags: [Tag.make("watched")] }),
  values: { _tag: "Always" },
  topology: true,
  initialValues: false
}

const on: Value = { _tag: "OnOff", state: "On" }

const switchOn = (name: string) => [{
  selectors: [channelSelector({ id: exactly(ChannelId.make(`setter:${name}@test`)), mechanism: exactly("setter") })],
  value: on
}]

/** The WebSocket of the client, on which every socket after the first sends its frames only once `release` is called. */
const holdingReconnections = () => {
  const sockets: Array<WebSocket> = []
  let release: () => void = () => undefined
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  class Held extends WebSocket {
    override send(data: string | Uint8Array<ArrayBuffer>): void {
      if (this === sockets[0]) {
        super.send(data)
        return
      }
      void released.then(() => this.readyState === WebSocket.OPEN && super.send(data))
    }
  }
  const platform = Layer.merge(
    NodeHttpClient.layerNodeHttp,
    // The offered protocols pass on: they carry the token, as a browser's watch sends it.
    Layer.succeed(Socket.WebSocketConstructor)((url, options) => {
      const socket = new Held(url, typeof options === "string" || Array.isArray(options) ? options : undefined)
      sockets.push(socket)
      return socket
    })
  )
  return { platform, release, drop: () => sockets[0]?.close(4000, "the test drops it") }
}

const isValue = (channel: ChannelId, value: Value) => (event: ClientWatchEvent): boolean =>
  event._tag === "ValueChanged" && event.channel === channel && JSON.stringify(event.value) === JSON.stringify(value)

describe.each(["a", "b"] as const)("the watch of the client in vocabulary %s, resuming", (vocabulary) => {
  it("brings a value changed and a getter gone between its knowing of the gap and its registration", async () => {
    const gateway = await startGateway(home)
    const held = holdingReconnections()
    const client = createClient({ url: gateway.baseUrl, token: gateway.token, vocabulary, platform: held.platform, reconnect: promptly })
    const other = clientOf(gateway, vocabulary)
    const events = client.watch([watched])[Symbol.asyncIterator]()
    const witness = other.watch([watched])[Symbol.asyncIterator]()
    const seen: Array<ClientWatchEvent> = []
    const witnessed: Array<ClientWatchEvent> = []
    try {
      await readUntil(events, seen, (read) => read.some((event) => event._tag === "ChannelAdded" && event.channel === getter("sentinel")))
      await readUntil(witness, witnessed, (read) => read.some((event) => event._tag === "ChannelAdded" && event.channel === getter("sentinel")))
      held.drop()
      const gap = seen.length
      await readUntil(events, seen, (read) => read.some((event) => event._tag === "Resynced"))
      // The window: the new socket is open, its registration not sent yet.
      await other.untagChannels([channelSelector({ id: exactly(getter("leaving")) })], [Tag.make("watched")])
      await readUntil(witness, witnessed, (read) => read.some((event) => event._tag === "ChannelRemoved"))
      await other.send(switchOn("lamp"))
      await readUntil(witness, witnessed, (read) => read.some(isValue(getter("lamp"), on)))
      held.release()
      await other.send(switchOn("sentinel"))
      await readUntil(events, seen, (read) => read.some(isValue(getter("sentinel"), on)))

      const resumed = seen.slice(gap)
      expect(resumed[0]).toEqual({ _tag: "Resynced" })
      expect(resumed.filter((event) => event._tag === "ChannelRemoved")).toEqual([{ _tag: "ChannelRemoved", channel: getter("leaving") }])
      expect(resumed.filter((event) => event._tag === "ChannelAdded")).toEqual([])
      expect(resumed.flatMap((event) => (event._tag === "ValueChanged" && event.channel === getter("lamp") ? [event.value] : []))).toEqual([on])
    } finally {
      await events.return?.()
      await witness.return?.()
      await client.close()
      await other.close()
      await gateway.close()
    }
  })
})
