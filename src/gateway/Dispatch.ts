import { Context, Effect, Layer, Option, Result } from "effect"
import type { Adapter, CallContext, Reply } from "../adapters/Adapter.ts"
import type { ChannelError } from "../domain/ChannelError.ts"
import type { AdapterId, ChannelId } from "../domain/Identifier.ts"
import { kindValueType } from "../domain/Kind.ts"
import type { FetchResults, ResultKey, SendResults } from "../domain/Outcome.ts"
import type { SendTarget } from "../domain/Request.ts"
import type { ChannelSelector } from "../domain/Selector.ts"
import type { Value } from "../domain/Value.ts"
import { GatewayConfig } from "../GatewayConfig.ts"
import { callDevice } from "./DeviceCall.ts"
import type { ChannelRecord } from "./HomeIndex.ts"
import { Registry } from "./Registry.ts"
import { resolveTargets } from "./TargetResolution.ts"

export interface DispatchShape {
  /** Reads the latest value of every getter the selectors match. */
  readonly fetch: (selectors: ReadonlyArray<ChannelSelector>, context: CallContext) => Effect.Effect<FetchResults>
  /** Sends each target's value to every setter its selectors match; the last value wins per setter. */
  readonly send: (targets: ReadonlyArray<SendTarget>, context: CallContext) => Effect.Effect<SendResults>
}

const groupByAdapter = <A extends { readonly record: ChannelRecord }>(items: Iterable<A>) => {
  const groups = new Map<AdapterId, Array<A>>()
  for (const item of items) {
    const group = groups.get(item.record.adapter)
    if (group === undefined) groups.set(item.record.adapter, [item])
    else group.push(item)
  }
  return groups
}

const sortedResults = <A>(results: ReadonlyMap<ResultKey, Result.Result<A, ChannelError>>) =>
  [...results.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, result]) => ({ key, result }))

const adapterGone = (adapter: AdapterId): ChannelError => ({ _tag: "DeviceFailure", message: `adapter ${adapter} is not connected` })

/**
 * Reads and writes on devices (wire.md §6 "Rules for both"): resolves targets, checks value types
 * against kinds, groups per adapter and calls each adapter once per request, concurrently, each call
 * bounded by the device timeout. A failing or hung adapter only affects its own channels.
 */
export class Dispatch extends Context.Service<Dispatch, DispatchShape>()("app/Dispatch") {
  static readonly layer = Layer.effect(
    Dispatch,
    Effect.gen(function*() {
      const registry = yield* Registry
      const { deviceTimeoutMs } = yield* GatewayConfig

      /**
       * Calls every adapter of `groups` once, concurrently, and records each channel's answer in
       * `results`. An adapter that is gone answers for all its channels with a DeviceFailure.
       */
      const callAdapters = <A, I extends { readonly record: ChannelRecord }>(
        groups: ReadonlyMap<AdapterId, ReadonlyArray<I>>,
        results: Map<ResultKey, Result.Result<A, ChannelError>>,
        call: (adapter: Adapter, group: ReadonlyArray<I>, reply: Reply<A>) => Effect.Effect<void>
      ) =>
        Effect.forEach(
          groups,
          ([adapterId, group]) =>
            Effect.gen(function*() {
              const ids = group.map((g) => g.record.id)
              const adapter = registry.adapter(adapterId)
              const answers = Option.isNone(adapter)
                ? new Map(ids.map((id) => [id, Result.fail(adapterGone(adapterId))]))
                : yield* callDevice<A>(ids, deviceTimeoutMs, (reply) => call(adapter.value, group, reply))
              for (const id of ids) results.set(id, answers.get(id) ?? Result.fail(adapterGone(adapterId)))
            }),
          { concurrency: "unbounded", discard: true }
        )

      const fetch = Effect.fn("Dispatch.fetch")(function*(selectors: ReadonlyArray<ChannelSelector>, context: CallContext) {
        const { channels, missing } = resolveTargets(registry.index, "getter", selectors)
        const results = new Map<ResultKey, Result.Result<Option.Option<Value>, ChannelError>>(
          [...missing].map(([key, error]) => [key, Result.fail(error)])
        )
        yield* callAdapters(groupByAdapter(channels.map((record) => ({ record }))), results, (adapter, group, reply) =>
          adapter.fetch(group.map((g) => g.record.id), context, reply))
        for (const record of channels) {
          const answer = checkAnswer(record, results.get(record.id))
          results.set(record.id, answer)
          if (Result.isSuccess(answer) && Option.isSome(answer.success)) {
            yield* registry.observe(record.id, answer.success.value)
          }
        }
        return sortedResults(results)
      })

      const send = Effect.fn("Dispatch.send")(function*(targets: ReadonlyArray<SendTarget>, context: CallContext) {
        const results = new Map<ResultKey, Result.Result<void, ChannelError>>()
        const writes = new Map<ChannelId, { readonly record: ChannelRecord; readonly value: Value }>()
        for (const target of targets) {
          const { channels, missing } = resolveTargets(registry.index, "setter", target.selectors)
          for (const [key, error] of missing) results.set(key, Result.fail(error))
          for (const record of channels) {
            // The last value sent to a setter in one request wins, whatever came before it.
            results.delete(record.id)
            writes.delete(record.id)
            const expected = kindValueType(record.kind)
            if (expected === target.value._tag) writes.set(record.id, { record, value: target.value })
            else results.set(record.id, Result.fail({ _tag: "TypeMismatch", expected, got: target.value._tag }))
          }
        }
        yield* callAdapters(groupByAdapter(writes.values()), results, (adapter, group, reply) =>
          adapter.send(group.map((g) => ({ channel: g.record.id, value: g.value })), context, reply))
        yield* registry.markSent([...writes.keys()].filter((id) => results.get(id)?._tag === "Success"))
        return sortedResults(results)
      })

      return Dispatch.of({ fetch, send })
    })
  )
}

/** A device answer of the wrong type for the channel's kind is the device's fault: a DeviceFailure. */
const checkAnswer = (
  record: ChannelRecord,
  answer: Result.Result<Option.Option<Value>, ChannelError> | undefined
): Result.Result<Option.Option<Value>, ChannelError> => {
  if (answer === undefined) return Result.fail({ _tag: "DeviceFailure", message: "device gave no answer for this channel" })
  if (Result.isFailure(answer) || Option.isNone(answer.success)) return answer
  const expected = kindValueType(record.kind)
  const got = answer.success.value._tag
  return got === expected
    ? answer
    : Result.fail({ _tag: "DeviceFailure", message: `device answered a ${got} for a channel of type ${expected}` })
}
