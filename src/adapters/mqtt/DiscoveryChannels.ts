import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { builtinKind, type Kind } from "../../domain/Kind.ts"
import type { Value } from "../../domain/Value.ts"
import { boundedProperties } from "./DeviceText.ts"
import { type Config, textOf, textOr, topicOf } from "./DiscoveryConfig.ts"
import { discoveryExtension, type DiscoveryPoint, type Reading, vendorOf, type Writing, wrongValue } from "./DiscoveryPoint.ts"
import { readCommandTemplate, readTemplate } from "./DiscoveryTemplate.ts"

/**
 * The building blocks of a discovered entity's channels: a builder that reads its topics and
 * templates from its config, and the channels of the kinds most components share.
 */

/** What reading one entity's config builds: its points, and what it had to leave out. */
export const entityBuilder = (config: Config, base: string) => {
  const unsupported: Array<string> = []
  const points: Array<DiscoveryPoint> = []
  /** A getter on the topic of `topicKey`, its payload passed through the template of `templateKey`. */
  const reading = (topicKey: string, templateKey: string, read: (text: string) => Option.Option<Value>): Option.Option<Reading> =>
    Option.flatMap(topicOf(config, topicKey), (topic) => {
      const template = textOf(config, templateKey)
      const extract = readTemplate(template)
      if (Result.isFailure(extract)) {
        unsupported.push(`${templateKey}: ${extract.failure}`)
        return Option.none()
      }
      return Option.some({ topic, read: (payload: string) => Option.flatMap(extract.success(payload), read) })
    })
  /** A setter on the topic of `topicKey`, its payload passed through the command template of `templateKey`. */
  const writing = (topicKey: string, templateKey: string, write: Writing["write"]): Option.Option<Writing> =>
    Option.flatMap(topicOf(config, topicKey), (topic) => {
      const fill = readCommandTemplate(textOf(config, templateKey))
      if (Result.isFailure(fill)) {
        unsupported.push(`${templateKey}: ${fill.failure}`)
        return Option.none()
      }
      return Option.some({ topic, write: (value: Value) => Result.map(write(value), fill.success) })
    })
  /** The name of a part of the entity (`""`: the entity itself) within its device. */
  const local = (part: string) => (part === "" ? base : `${base}.${part}`)
  /** A point, if it reads or writes anything (a template left out may leave it neither). */
  const add = (part: string, kind: Kind, read: Option.Option<Reading>, write: Option.Option<Writing>, more: Partial<DiscoveryPoint> = {}) => {
    if (Option.isSome(read) || Option.isSome(write)) {
      points.push({ local: local(part), kind, reading: read, writing: write, event: false, ...more, describes: boundedProperties(more.describes ?? {}) })
    }
  }
  return { unsupported, points, reading, writing, add, local }
}

export type Builder = ReturnType<typeof entityBuilder>

export type TwoState = "OnOff" | "OpenClosed" | "DoorLocked"

/** A two-state kind, read from the texts `read.on`/`read.off` and written as `write.on`/`write.off`. */
export const twoState = (
  b: Builder,
  kind: TwoState,
  [onState, offState]: readonly [string, string],
  read: { readonly topic: string; readonly template: string; readonly on: string; readonly off: string },
  write?: { readonly topic: string; readonly template: string; readonly on: string; readonly off: string }
) =>
  b.add(
    "",
    builtinKind(kind),
    b.reading(read.topic, read.template, (text) =>
      text === read.on ? Option.some({ _tag: kind, state: onState } as Value) : text === read.off ? Option.some({ _tag: kind, state: offState } as Value) : Option.none()),
    write === undefined ? Option.none() : b.writing(write.topic, write.template, (value) =>
      value._tag === kind ? Result.succeed(value.state === onState ? write.on : write.off) : wrongValue(b.local(""), kind, value))
  )

const number = (text: string): Option.Option<number> => {
  const n = Number(text.trim())
  return text.trim() !== "" && Number.isFinite(n) ? Option.some(n) : Option.none()
}

export const isFahrenheit = (unit: Option.Option<string>) => Option.isSome(unit) && (unit.value === "°F" || unit.value === "F")

/** A Temperature channel in `unit` (`C` or `F`); a write in the other unit is converted. */
export const temperature = (
  b: Builder,
  part: string,
  kind: "ActualTemperature" | "Thermostat",
  unit: "C" | "F",
  readFrom: readonly [string, string],
  writeTo?: string,
  describes: Record<string, string> = {}
) =>
  b.add(
    part,
    builtinKind(kind),
    b.reading(readFrom[0], readFrom[1], (text) => Option.map(number(text), (degrees): Value => ({ _tag: "Temperature", unit, degrees }))),
    writeTo === undefined ? Option.none() : b.writing(writeTo, "", (value) => {
      if (value._tag !== "Temperature") return wrongValue(b.local(part), "Temperature", value)
      const degrees = value.unit === unit ? value.degrees : unit === "C" ? (value.degrees - 32) * 5 / 9 : value.degrees * 9 / 5 + 32
      return Result.succeed(String(degrees))
    }),
    { describes }
  )

/** A number channel (`ExtNumeric` of `kind`). */
export const numeric = (b: Builder, part: string, kind: string, readFrom: readonly [string, string], writeTo: string | undefined, describes: Record<string, string> = {}) =>
  b.add(
    part,
    discoveryExtension(kind, "ExtNumeric"),
    b.reading(readFrom[0], readFrom[1], (text) => Option.map(number(text), (value): Value => ({ _tag: "ExtNumeric", value, ...vendorOf(kind) }))),
    writeTo === undefined
      ? Option.none()
      : b.writing(writeTo, "", (value) => (value._tag === "ExtNumeric" ? Result.succeed(String(value.value)) : wrongValue(b.local(part), "ExtNumeric", value))),
    { describes }
  )

/** A text channel (`String` of `kind`); with `options` (a climate's `modes`…), a write takes one of them. */
export const text = (
  b: Builder,
  part: string,
  kind: string,
  readFrom: readonly [string, string],
  writeTo: string | undefined,
  options?: ReadonlyArray<string>
) =>
  b.add(
    part,
    discoveryExtension(kind, "String"),
    b.reading(readFrom[0], readFrom[1], (text) => Option.some({ _tag: "String", value: text })),
    writeTo === undefined ? Option.none() : b.writing(writeTo, "", (value) => {
      if (value._tag !== "String") return wrongValue(b.local(part), "String", value)
      if (options === undefined || options.includes(value.value)) return Result.succeed(value.value)
      return Result.fail(`MQTT discovery's ${b.local(part)} takes one of ${options.join(", ")}, not "${value.value}"`)
    })
  )

export const onOff = (config: Config) => ({ on: textOr(config, "payload_on", "ON"), off: textOr(config, "payload_off", "OFF") })

/** Config keys and their defaults: what a state says for each state, and what a command sends for each. */
interface StateTexts {
  readonly on: readonly [string, string]
  readonly off: readonly [string, string]
}

/** A two-state entity read on `state_topic` (through `value_template`) and written on `command_topic` (through `command_template`). */
export const commandedTwoState = (b: Builder, config: Config, kind: TwoState, states: readonly [string, string], read: StateTexts, write: StateTexts) =>
  twoState(b, kind, states, {
    topic: "state_topic",
    template: "value_template",
    on: textOr(config, ...read.on),
    off: textOr(config, ...read.off)
  }, { topic: "command_topic", template: "command_template", on: textOr(config, ...write.on), off: textOr(config, ...write.off) })
