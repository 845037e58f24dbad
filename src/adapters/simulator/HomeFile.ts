import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { AdapterId, ChannelId, ServiceId, Tag } from "../../domain/Identifier.ts"
import { type Kind, kindValueType } from "../../domain/Kind.ts"
import type { Value } from "../../domain/Value.ts"
import { formatPath, type InputPath } from "../../vocabulary/common/InvalidInput.ts"
import { parseJson } from "../../vocabulary/common/JsonText.ts"
import { BareKindJson as KindJson } from "../../vocabulary/common/KindNameJson.ts"
import { ValueInputJson, ValueOrNullJson } from "../../vocabulary/common/ValueJson.ts"
import { describeIssue, parseOptions } from "../../vocabulary/common/WireIssue.ts"

/**
 * The home file of the simulator (docs/simulator.md): a public contract, decoded by the Schema
 * `HomeFile`. Values and kinds are the wire's own schemas (values as in docs/reference.md §2, kinds as vocabulary B
 * writes them), so that a home file and a request body mean the same thing by the same JSON.
 */

export const defaultSimulatorAdapter = "simulator@gateway.local"

/** A getter's initial value; `null` or no `value` at all means "no value yet", as `null` does in results. */
const InitialValue = ValueOrNullJson.codec

const Tags = Schema.Array(Tag).pipe(Schema.withDecodingDefaultKey(Effect.succeed([])))
const Milliseconds = Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0))

const kindName = (kind: Kind): string =>
  kind._tag === "Builtin" ? kind.name : `${kind.vendor}/${kind.adapter}/${kind.kind}`

/** Why `value` cannot be held by a channel of `kind`, if it cannot. */
const misfit = (kind: Kind, value: Value): string | undefined => {
  const expected = kindValueType(kind)
  return value._tag === expected ? undefined : `kind ${kindName(kind)} carries ${expected} values, got a ${value._tag}`
}

export const Cycle = Schema.Struct({
  /** At least a millisecond: a zero period would make the getter spin. */
  every_ms: Schema.Finite.check(Schema.isGreaterThanOrEqualTo(1)),
  values: Schema.Array(ValueInputJson.codec).check(Schema.isMinLength(1, { message: "must list at least one value" }))
})
export type Cycle = typeof Cycle.Type

export const SimulatedGetter = Schema.Struct({
  id: ChannelId,
  kind: KindJson.codec,
  tags: Tags,
  value: InitialValue.pipe(Schema.withDecodingDefaultKey(Effect.succeed(null))),
  cycle: Schema.optionalKey(Cycle),
  watch: Schema.optionalKey(Schema.Literal("thresholds-only"))
}).check(Schema.makeFilter((getter) => {
  const issues: Array<Schema.FilterIssue> = []
  if (Option.isSome(getter.value)) {
    const reason = misfit(getter.kind, getter.value.value)
    if (reason !== undefined) issues.push({ path: ["value"], issue: reason })
  }
  getter.cycle?.values.forEach((value, i) => {
    const reason = misfit(getter.kind, value)
    if (reason !== undefined) issues.push({ path: ["cycle", "values", i], issue: reason })
  })
  return issues
}))
export type SimulatedGetter = typeof SimulatedGetter.Type

export const SimulatedSetter = Schema.Struct({
  id: ChannelId,
  kind: KindJson.codec,
  tags: Tags,
  /** A getter of the same home whose value becomes what is written here. */
  drives: Schema.optionalKey(ChannelId)
})
export type SimulatedSetter = typeof SimulatedSetter.Type

export const SimulatedService = Schema.Struct({
  id: ServiceId,
  tags: Tags,
  properties: Schema.Record(Schema.String, Schema.String).pipe(Schema.withDecodingDefaultKey(Effect.succeed({}))),
  latency_ms: Milliseconds.pipe(Schema.withDecodingDefaultKey(Effect.succeed(0))),
  fail: Schema.optionalKey(Schema.Literals(["error", "timeout"])),
  getters: Schema.Array(SimulatedGetter).pipe(Schema.withDecodingDefaultKey(Effect.succeed([]))),
  setters: Schema.Array(SimulatedSetter).pipe(Schema.withDecodingDefaultKey(Effect.succeed([])))
})
export type SimulatedService = typeof SimulatedService.Type

/** Ids are unique (services among services, channels among all channels) and every `drives` resolves. */
const consistentHome = Schema.makeFilter<{ readonly services: ReadonlyArray<SimulatedService> }>((home) => {
  const issues: Array<Schema.FilterIssue> = []
  const serviceAt = new Map<string, string>()
  const channelAt = new Map<string, string>()
  const getters = new Map<string, SimulatedGetter>()
  home.services.forEach((service, s) => {
    const previous = serviceAt.get(service.id)
    if (previous !== undefined) issues.push({ path: ["services", s, "id"], issue: `service id ${JSON.stringify(service.id)} is also used at ${previous}` })
    else serviceAt.set(service.id, formatPath(["services", s], ""))
    for (const mechanism of ["getters", "setters"] as const) {
      service[mechanism].forEach((channel, c) => {
        const first = channelAt.get(channel.id)
        if (first !== undefined) {
          issues.push({ path: ["services", s, mechanism, c, "id"], issue: `channel id ${JSON.stringify(channel.id)} is also used at ${first}` })
        } else channelAt.set(channel.id, formatPath(["services", s, mechanism, c], ""))
      })
    }
    for (const getter of service.getters) getters.set(getter.id, getter)
  })
  home.services.forEach((service, s) => {
    service.setters.forEach((setter, c) => {
      if (setter.drives === undefined) return
      const path = ["services", s, "setters", c, "drives"]
      const driven = getters.get(setter.drives)
      if (driven === undefined) issues.push({ path, issue: `no getter ${JSON.stringify(setter.drives)} in this home` })
      else if (kindValueType(driven.kind) !== kindValueType(setter.kind)) {
        issues.push({
          path,
          issue: `getter ${JSON.stringify(setter.drives)} carries ${kindValueType(driven.kind)} values but this setter carries ${kindValueType(setter.kind)}`
        })
      }
    })
  })
  return issues
})

export const HomeFile = Schema.Struct({
  adapter: AdapterId.pipe(Schema.withDecodingDefaultKey(Effect.succeed(defaultSimulatorAdapter))),
  services: Schema.Array(SimulatedService)
}).check(consistentHome)
export type Home = typeof HomeFile.Type

/**
 * A home file the simulator cannot use. The message names the file and the place inside it, e.g.
 * `home.json: services[1].getters[0].kind: unknown kind "Toaster" (…)`.
 */
export class InvalidHomeFile extends Data.TaggedError("InvalidHomeFile")<{
  /** The file, or what stands for it (the built-in demo home). */
  readonly source: string
  readonly path: InputPath
  readonly reason: string
}> {
  override get message(): string {
    const where = formatPath(this.path, "")
    return where === "" ? `${this.source}: ${this.reason}` : `${this.source}: ${where}: ${this.reason}`
  }
}

const decodeHomeFile = Schema.decodeUnknownResult(HomeFile, parseOptions)

/** Reads a parsed home file; the first problem is the answer, named at its place in the file. */
export const decodeHome = (json: unknown, source: string): Result.Result<Home, InvalidHomeFile> =>
  Result.mapError(decodeHomeFile(json), (error) => {
    const { path, reason } = describeIssue(error.issue, "path")
    return new InvalidHomeFile({ source, path, reason })
  })

/** Reads the text of a home file. */
export const parseHome = (text: string, source: string): Result.Result<Home, InvalidHomeFile> =>
  Result.flatMap(
    Result.mapError(parseJson(text), (reason) =>
      new InvalidHomeFile({ source, path: [], reason: `not valid JSON: ${reason}` })),
    (json) => decodeHome(json, source)
  )
