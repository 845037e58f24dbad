import { readFileSync } from "node:fs"
import { Effect, Fiber, Layer, Queue, Schedule, Stream } from "effect"
import { describe, expect, it } from "vitest"
import {
  type ClientWatchEvent,
  type ConnectionEvent,
  createClient,
  everyGetter,
  GatewayClient,
  type WatchRegistration
} from "../../src/client/index.ts"
import { type GatewayOverHttp, startGateway } from "../support/gatewayOverHttp.ts"
import { nodePlatform, readUntil } from "./clients.ts"

/**
 * A watch asked for its connection events says `Connected` when its socket is open and registered, and
 * `Disconnected` (why, and when it tries again) when the socket drops or does not open, in both faces;
 * a watch not asked for them gives the watch's events alone.
 */

const everything: WatchRegistration = [{ selector: everyGetter, values: { _tag: "Always" }, topology: true, initialValues: false }]
const every200ms = Schedule.spaced("200 millis")

const home = JSON.parse(readFileSync(new URL("../../docs/examples/home.json", import.meta.url), "utf8"))

/** The gateway started again where `stopped` ran: its data folder and port, the token the client holds still good. */
const startedAgain = (stopped: GatewayOverHttp) =>
  startGateway(home, { dataDir: stopped.dataDir, port: Number(new URL(stopped.baseUrl).port) })

const isConnection = (event: { readonly _tag: string }): event is ConnectionEvent => event._tag === "Connected" || event._tag === "Disconnected"

describe("a watch with connectionEvents, in the Promise face", () => {
  it("says Connected, Disconnected while the gateway is stopped, then Connected and Resynced when it is back", async () => {
    let gateway = await startGateway(home)
    const token = gateway.token
    const client = createClient({ url: gateway.baseUrl, token, vocabulary: "b", platform: nodePlatform, reconnect: every200ms })
    const events = client.watch(everything, { connectionEvents: true })[Symbol.asyncIterator]()
    const plain = client.watch(everything)[Symbol.asyncIterator]()
    const seen: Array<ClientWatchEvent | ConnectionEvent> = []
    const plainSeen: Array<ClientWatchEvent> = []
    try {
      await readUntil(events, seen, (s) => s.some((e) => e._tag === "ChannelAdded"))
      await readUntil(plain, plainSeen, (s) => s.some((e) => e._tag === "ChannelAdded"))
      expect(seen[0]).toEqual({ _tag: "Connected" })
      await gateway.close()
      const gap = seen.length
      await readUntil(events, seen, (s) => s.slice(gap).filter((e) => e._tag === "Disconnected").length >= 2)
      const down = seen.slice(gap).filter(isConnection)
      expect(down[0]).toMatchObject({ _tag: "Disconnected", retryInMs: 200 })
      expect(down.map((e) => e._tag === "Disconnected" && e.reason).at(-1)).toMatch(/refused/)
      gateway = await startedAgain(gateway)
      await readUntil(events, seen, (s) => s.slice(gap).some((e) => e._tag === "Connected"))
      const back = seen.findLastIndex((e) => e._tag === "Connected")
      await readUntil(events, seen, (s) => s.length > back + 1)
      expect(seen[back + 1]).toEqual({ _tag: "Resynced" })
      await readUntil(plain, plainSeen, (s) => s.some((e) => e._tag === "Resynced"))
      expect(plainSeen.filter(isConnection)).toEqual([])
    } finally {
      await events.return?.()
      await plain.return?.()
      await client.close()
      await gateway.close()
    }
  })
})

describe("a watch with connectionEvents, in the Effect face", () => {
  it("started against a stopped gateway, says Disconnected with the reason until the gateway starts, then Connected", async () => {
    let gateway = await startGateway(home)
    const token = gateway.token
    const url = gateway.baseUrl
    await gateway.close()
    const layer = GatewayClient.layer({ url, token, vocabulary: "a", reconnect: every200ms }).pipe(Layer.provide(nodePlatform))
    try {
      await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
        const client = yield* GatewayClient
        const events = yield* Queue.unbounded<ClientWatchEvent | ConnectionEvent>()
        const watching = yield* Effect.forkChild(Stream.runForEach(client.watch(everything, { connectionEvents: true }), (e) => Queue.offer(events, e)))
        const first = yield* Queue.take(events)
        expect(first).toMatchObject({ _tag: "Disconnected", retryInMs: 200 })
        expect(first._tag === "Disconnected" && first.reason).toMatch(/refused/)
        expect(yield* Queue.take(events)).toMatchObject({ _tag: "Disconnected" })
        gateway = yield* Effect.promise(() => startedAgain(gateway))
        let next = yield* Queue.take(events)
        while (next._tag === "Disconnected") next = yield* Queue.take(events)
        expect(next).toEqual({ _tag: "Connected" })
        expect((yield* Queue.take(events))._tag).toBe("ChannelAdded")
        yield* Fiber.interrupt(watching)
      }).pipe(Effect.provide(layer))))
    } finally {
      await gateway.close()
    }
  })
})
