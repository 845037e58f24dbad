import { describe, expect, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import { anyChannel, ChannelId, exactly } from "../../src/domain/index.ts"
import { Registry } from "../../src/gateway/Registry.ts"
import { Watch } from "../../src/gateway/Watch.ts"
import { gatewayTestLayer } from "../support/gatewayTestLayer.ts"
import { lightDescription, makeRecordingAdapter } from "../support/RecordingAdapter.ts"

const getter = ChannelId.make("getter:one@a")
const on = { _tag: "OnOff", state: "On" } as const

describe("watch (the Stream)", () => {
  it.live("announces the set, follows values, and releases its watch when the consumer stops", () =>
    Effect.gen(function*() {
      const registry = yield* Registry
      const watch = yield* Watch
      const host = yield* registry.register(makeRecordingAdapter("a").adapter)
      yield* host.upsertService(lightDescription("one", "a"))
      const registration = [{ selector: { ...anyChannel, id: exactly(getter) }, values: { _tag: "Always" } as const, topology: true, initialValues: false }]
      // The device reports a value once the announcement is out: the watch is open by then.
      const events = yield* watch.watch(registration).pipe(
        Stream.tap((event) => event._tag === "ChannelAdded" ? host.reportValue(getter, on) : Effect.void),
        Stream.take(2),
        Stream.runCollect
      )
      expect([...events]).toEqual([
        { _tag: "ChannelAdded", channel: getter },
        { _tag: "ValueChanged", channel: getter, value: on }
      ])
      expect(yield* watch.live).toBe(0)
    }).pipe(Effect.scoped, Effect.provide(gatewayTestLayer())))
})
