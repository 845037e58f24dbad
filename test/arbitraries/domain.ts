import { Option, Result, type Schema } from "effect"
import * as fc from "fast-check"
import { codePoint } from "./codePoint.ts"
import {
  AdapterId,
  builtinKindNames,
  type Channel,
  type ChannelError,
  ChannelId,
  type ChannelSelector,
  type Constraint,
  conflict,
  empty,
  exactly,
  type FetchOutcome,
  type Kind,
  type Mechanism,
  normalizeTags,
  type Range,
  type SendOutcome,
  type SendTarget,
  type Service,
  ServiceId,
  type ServiceSelector,
  Tag,
  type TagRequest,
  type Value,
  type ValueType,
  valueTypes,
  type WatchEvent,
  type WatchTarget
} from "../../src/domain/index.ts"

/**
 * fast-check arbitraries for the canonical model, shared by both codecs' tests. Every arbitrary yields
 * values in canonical form (what a decoder produces): tags sorted and unique, numbers without `-0`,
 * Duration on whole milliseconds, hue in [0, 360).
 */

// ---- identifiers and tags ------------------------------------------------------------------------

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const hasControlCharacter = (s: string): boolean => /[\u0000-\u001f\u007f-\u009f]/.test(s)

/** Text a domain identifier or tag accepts: realistic ids, arbitrary code points, and the 256-character limit. */
export const boundedText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("getter:light-1@sim", "setter:door@sim", "service:hall@sim", "kitchen", "clock@foxbox.org"),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }),
  fc.string({ unit: codePoint, minLength: 1, maxLength: 24 }).filter((s) => !hasControlCharacter(s)),
  fc.string({ unit: "grapheme-ascii", minLength: 256, maxLength: 256 })
)

export const serviceId: fc.Arbitrary<ServiceId> = boundedText.map((s) => ServiceId.make(s))
export const channelId: fc.Arbitrary<ChannelId> = boundedText.map((s) => ChannelId.make(s))
export const adapterId: fc.Arbitrary<AdapterId> = boundedText.map((s) => AdapterId.make(s))
export const tag: fc.Arbitrary<Tag> = boundedText.map((s) => Tag.make(s))
export const tags: fc.Arbitrary<ReadonlyArray<Tag>> = fc.array(tag, { maxLength: 4 }).map(normalizeTags)

/** Any string, for the fields the domain leaves free (extension vendor, mimetype, messages). */
export const anyString: fc.Arbitrary<string> = fc.string({ unit: codePoint, maxLength: 16 })

// ---- values ---------------------------------------------------------------------------------------

/** A finite double, `-0` read as `0` (JSON cannot tell them apart). */
export const finite: fc.Arbitrary<number> = fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => n + 0)

const unitInterval = fc.double({ min: 0, max: 1, noNaN: true }).map((n) => n + 0)

const durationSeconds = fc.oneof(
  fc.integer({ min: 0, max: 2 ** 31 - 1 }).map((ms) => ms / 1000),
  fc.integer({ min: 0, max: 2 ** 51 - 1 }).map((ms) => ms / 1000),
  // From 2^51 ms on, the codec keeps a duration as it is (see ValueJson).
  fc.double({ min: 2 ** 51 / 1000, max: 1e300, noNaN: true, noDefaultInfinity: true })
)

/** Milliseconds since the epoch: mostly around now, any safe integer sometimes. */
export const timestamp: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: 0, max: 4_102_444_800_000 }),
  fc.maxSafeInteger()
)

/** Any JSON, as `JSON.parse` of its own text gives it back (so without `-0`). */
const json = fc.jsonValue({ maxDepth: 3 }).map((v): Schema.Json => JSON.parse(JSON.stringify(v)))

const vendor = fc.record({ vendor: anyString, adapter: anyString, kind: anyString })

const valuesOfType: { readonly [T in ValueType]: fc.Arbitrary<Extract<Value, { readonly _tag: T }>> } = {
  Unit: fc.constant({ _tag: "Unit" }),
  OnOff: fc.constantFrom("On", "Off").map((state) => ({ _tag: "OnOff", state })),
  OpenClosed: fc.constantFrom("Open", "Closed").map((state) => ({ _tag: "OpenClosed", state })),
  DoorLocked: fc.constantFrom("Locked", "Unlocked").map((state) => ({ _tag: "DoorLocked", state })),
  Duration: durationSeconds.map((seconds) => ({ _tag: "Duration", seconds })),
  TimeStamp: timestamp.map((epochMillis) => ({ _tag: "TimeStamp", epochMillis })),
  Temperature: fc.record({ unit: fc.constantFrom("C", "F"), degrees: finite }).map((t) => ({ _tag: "Temperature", ...t })),
  Color: fc.record({
    h: fc.double({ min: 0, max: 360, maxExcluded: true, noNaN: true }).map((n) => n + 0),
    s: unitInterval,
    v: unitInterval
  }).map((c) => ({ _tag: "Color", ...c })),
  String: fc.string({ unit: codePoint }).map((value) => ({ _tag: "String", value })),
  Json: json.map((value) => ({ _tag: "Json", value })),
  Binary: fc.record({ data: fc.array(fc.integer({ min: 0, max: 255 })), mimetype: anyString })
    .map((b) => ({ _tag: "Binary", ...b })),
  ExtBool: fc.record({ value: fc.boolean(), ext: vendor }).map(({ ext, value }) => ({ _tag: "ExtBool", value, ...ext })),
  ExtNumeric: fc.record({ value: finite, ext: vendor }).map(({ ext, value }) => ({ _tag: "ExtNumeric", value, ...ext }))
}

export const valueType: fc.Arbitrary<ValueType> = fc.constantFrom(...valueTypes)
export const valueOfType = <T extends ValueType>(type: T): fc.Arbitrary<Value> => valuesOfType[type]
export const value: fc.Arbitrary<Value> = valueType.chain(valueOfType)

// ---- kinds and ranges -----------------------------------------------------------------------------

export const kind: fc.Arbitrary<Kind> = fc.oneof(
  fc.constantFrom(...builtinKindNames).map((name): Kind => ({ _tag: "Builtin", name })),
  fc.record({ vendor: anyString, adapter: anyString, kind: anyString, type: valueType })
    .map((k): Kind => ({ _tag: "Extension", ...k }))
)

/** A range whose two bounds, if it has two, share one type (the codecs refuse others). */
export const range: fc.Arbitrary<Range> = valueType.chain((type) =>
  fc.oneof(
    fc.record({ _tag: fc.constantFrom("Eq", "Leq", "Geq"), value: valueOfType(type) }),
    fc.record({ _tag: fc.constantFrom("BetweenEq", "OutOfStrict"), low: valueOfType(type), high: valueOfType(type) })
  )
)

// ---- selectors ------------------------------------------------------------------------------------

export interface ConstraintOptions {
  /** Include `Conflict`, which vocabulary B cannot write. */
  readonly conflict?: boolean
}

export const constraint = <A>(arb: fc.Arbitrary<A>, options: ConstraintOptions = {}): fc.Arbitrary<Constraint<A>> =>
  options.conflict === true
    ? fc.oneof(fc.constant(empty), arb.map(exactly), fc.constant(conflict))
    : fc.oneof(fc.constant(empty), arb.map(exactly))

export const mechanism: fc.Arbitrary<Mechanism> = fc.constantFrom("getter", "setter")

export interface ChannelSelectorOptions extends ConstraintOptions {
  /** Fix the selector's mechanism constraint (vocabulary B's getter and setter selectors); any if absent. */
  readonly mechanism?: Constraint<Mechanism>
}

export const channelSelector = (options: ChannelSelectorOptions = {}): fc.Arbitrary<ChannelSelector> =>
  fc.record({
    id: constraint(channelId, options),
    service: constraint(serviceId, options),
    mechanism: options.mechanism === undefined ? constraint(mechanism, options) : fc.constant(options.mechanism),
    kind: constraint(kind, options),
    tags,
    serviceTags: tags
  })

export const getterSelector = (options: ConstraintOptions = {}) =>
  channelSelector({ ...options, mechanism: exactly("getter") })
export const setterSelector = (options: ConstraintOptions = {}) =>
  channelSelector({ ...options, mechanism: exactly("setter") })

export const serviceSelector = (options: ConstraintOptions = {}): fc.Arbitrary<ServiceSelector> =>
  fc.record({
    id: constraint(serviceId, options),
    tags,
    getters: fc.array(getterSelector(options), { maxLength: 2 }),
    setters: fc.array(setterSelector(options), { maxLength: 2 })
  })

// ---- resources ------------------------------------------------------------------------------------

const nullableTimestamp = fc.option(timestamp, { nil: null })

export const channel: fc.Arbitrary<Channel> = fc.record({
  id: channelId,
  service: serviceId,
  adapter: adapterId,
  mechanism,
  kind,
  tags,
  updated: nullableTimestamp,
  lastSeen: nullableTimestamp,
  pushMs: fc.nat()
})

const channelsOf = (service: ServiceId, adapter: AdapterId, mechanism: Mechanism) =>
  fc.uniqueArray(channel, { selector: (c) => c.id, maxLength: 3 }).map((channels) =>
    channels
      .map((c): Channel => ({ ...c, service, adapter, mechanism, pushMs: mechanism === "getter" ? 0 : c.pushMs }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  )

/** A coherent service: its channels name it as their service, getters and setters sorted by id. */
export const service: fc.Arbitrary<Service> = fc.record({ id: serviceId, adapter: adapterId }).chain(({ adapter, id }) =>
  fc.record({
    id: fc.constant(id),
    adapter: fc.constant(adapter),
    tags,
    properties: fc.dictionary(anyString, anyString, { maxKeys: 3 }),
    getters: channelsOf(id, adapter, "getter"),
    setters: channelsOf(id, adapter, "setter")
  })
)

// ---- errors, results, events ----------------------------------------------------------------------

export const channelError: fc.Arbitrary<ChannelError> = fc.oneof(
  serviceId.map((id): ChannelError => ({ _tag: "NoSuchService", id })),
  channelId.map((id): ChannelError => ({ _tag: "NoSuchGetter", id })),
  channelId.map((id): ChannelError => ({ _tag: "NoSuchSetter", id })),
  fc.record({ expected: valueType, got: valueType }).map((t): ChannelError => ({ _tag: "TypeMismatch", ...t })),
  anyString.map((message): ChannelError => ({ _tag: "DeviceFailure", message }))
)

const sortedByKey = <A extends { readonly key: string }>(outcomes: ReadonlyArray<A>): ReadonlyArray<A> =>
  [...outcomes].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))

/** Results keyed by distinct ids, sorted by key, as the gateway produces them. */
export const fetchResults: fc.Arbitrary<ReadonlyArray<FetchOutcome>> = fc.uniqueArray(
  fc.record({
    key: channelId,
    result: fc.oneof(
      fc.option(value, { nil: undefined }).map((v) => Result.succeed(Option.fromUndefinedOr(v))),
      channelError.map((e) => Result.fail(e))
    )
  }),
  { selector: (o) => o.key, maxLength: 4 }
).map(sortedByKey)

export const sendResults: fc.Arbitrary<ReadonlyArray<SendOutcome>> = fc.uniqueArray(
  fc.record({
    key: channelId,
    result: fc.oneof(fc.constant(Result.void), channelError.map((e) => Result.fail(e)))
  }),
  { selector: (o) => o.key, maxLength: 4 }
).map(sortedByKey)

export const watchEvent: fc.Arbitrary<WatchEvent> = fc.oneof(
  channelId.map((channel): WatchEvent => ({ _tag: "ChannelAdded", channel })),
  channelId.map((channel): WatchEvent => ({ _tag: "ChannelRemoved", channel })),
  fc.record({ channel: channelId, value }).map((e): WatchEvent => ({ _tag: "ValueChanged", ...e })),
  fc.record({ channel: channelId, error: channelError }).map((e): WatchEvent => ({ _tag: "WatchRefused", ...e }))
)

// ---- requests -------------------------------------------------------------------------------------

export const tagRequest = <S>(selector: fc.Arbitrary<S>): fc.Arbitrary<TagRequest<S>> =>
  fc.record({ selectors: fc.array(selector, { maxLength: 3 }), tags })

export const sendTarget = (options: ConstraintOptions = {}): fc.Arbitrary<SendTarget> =>
  fc.record({ selectors: fc.array(setterSelector(options), { maxLength: 3 }), value })

export const watchTarget = (selector: fc.Arbitrary<ChannelSelector>): fc.Arbitrary<WatchTarget> =>
  fc.record({
    selector,
    values: fc.oneof(
      fc.constant({ _tag: "Never" as const }),
      fc.constant({ _tag: "Always" as const }),
      range.map((r) => ({ _tag: "InRange" as const, range: r }))
    ),
    topology: fc.boolean(),
    initialValues: fc.boolean()
  })
