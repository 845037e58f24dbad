import * as fc from "fast-check"

/**
 * Random simulator home files (docs/simulator.md) and random vocabulary A request bodies over the
 * same small pools of ids, tags, kinds and values, so that selectors often hit, miss and overlap, writes
 * often meet the wrong type, and some devices fail. Bodies are generated as A JSON, not through the
 * codec, so that A's decoder reads forms its encoder never writes (an explicit `{"Empty": []}`).
 */

interface KindInPool {
  /** As a home file (vocabulary B) writes it. */
  readonly b: unknown
  /** As vocabulary A writes it. */
  readonly a: unknown
  /** Values of its type. */
  readonly values: ReadonlyArray<unknown>
}

const gust = { vendor: "acme", adapter: "weather", kind: "gust" }

const kindPool: ReadonlyArray<KindInPool> = [
  { b: "OnOff", a: { OnOff: [] }, values: [{ OnOff: "On" }, { OnOff: "Off" }] },
  { b: "OpenClosed", a: { OpenClosed: [] }, values: [{ OpenClosed: "Open" }, { OpenClosed: "Closed" }] },
  { b: "Ready", a: { Ready: [] }, values: [{ Unit: null }] },
  {
    b: { ...gust, type: "ExtNumeric" },
    a: { Extension: { ...gust, type: "ExtNumeric" } },
    values: [{ ExtNumeric: { ...gust, value: 1.5 } }, { ExtNumeric: { ...gust, value: 20 } }]
  }
]

const tagPool = ["red", "blue", "green", "hall"]
const serviceCount = 4
const getterCount = 9
const setterCount = 6

export const serviceIdAt = (i: number) => `service:${i}@prop`
const getterIdAt = (i: number) => `getter:${i}@prop`
const setterIdAt = (i: number) => `setter:${i}@prop`

const tagSet = fc.uniqueArray(fc.constantFrom(...tagPool), { maxLength: 2 })
const kindIndex = fc.nat({ max: kindPool.length - 1 })

// ---- homes ---------------------------------------------------------------------------------------

const serviceSpec = fc.record({
  tags: tagSet,
  fails: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  getters: fc.array(
    fc.record({ kind: kindIndex, tags: tagSet, value: fc.option(fc.nat({ max: 1 }), { nil: undefined }) }),
    { maxLength: 3 }
  ),
  setters: fc.array(fc.record({ kind: kindIndex, tags: tagSet, drives: fc.boolean() }), { maxLength: 2 })
})

const kindAt = (i: number): KindInPool => kindPool[i] ?? { b: "OnOff", a: { OnOff: [] }, values: [] }

/**
 * A home file: services `service:N@prop` with getters `getter:N@prop` and setters `setter:N@prop`
 * numbered through the home. A setter may drive a getter of its own service carrying its kind.
 */
export const randomHomeFile: fc.Arbitrary<unknown> = fc
  .array(serviceSpec, { minLength: 1, maxLength: serviceCount })
  .map((specs) => {
    let nextGetter = 0
    let nextSetter = 0
    return {
      adapter: "simulator@gateway.local",
      services: specs.map((spec, i) => {
        const getters = spec.getters.map((g) => {
          const kind = kindAt(g.kind)
          const value = g.value === undefined ? undefined : kind.values[g.value % kind.values.length]
          return { id: getterIdAt(nextGetter++), kind: g.kind, json: { kind: kind.b, tags: g.tags, ...(value === undefined ? {} : { value }) } }
        })
        const setters = spec.setters.map((s) => {
          const driven = s.drives ? getters.find((g) => g.kind === s.kind) : undefined
          return {
            id: setterIdAt(nextSetter++),
            kind: kindAt(s.kind).b,
            tags: s.tags,
            ...(driven === undefined ? {} : { drives: driven.id })
          }
        })
        return {
          id: serviceIdAt(i),
          tags: spec.tags,
          ...(spec.fails ? { fail: "error" } : {}),
          getters: getters.map((g) => ({ id: g.id, ...g.json })),
          setters
        }
      })
    }
  })

// ---- vocabulary A bodies -------------------------------------------------------------------------

/** A field of an A selector: left out, `{"Empty": []}`, `{"Exactly": x}` or, rarely, `{"Conflict": []}`. */
const field = <A>(key: string, values: fc.Arbitrary<A>): fc.Arbitrary<Record<string, unknown>> =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.constant({ [key]: { Empty: [] } }) },
    { weight: 4, arbitrary: values.map((value) => ({ [key]: { Exactly: value } })) },
    { weight: 1, arbitrary: fc.constant({ [key]: { Conflict: [] } }) }
  )

const tagsField = fc.oneof(
  { weight: 2, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: tagSet.map((tags) => ({ tags })) }
)

/** Ids of either mechanism, and some no home has: A must answer NoSuchGet / NoSuchSet for them. */
const channelIdInPool = fc.oneof(
  fc.nat({ max: getterCount }).map(getterIdAt),
  fc.nat({ max: setterCount }).map(setterIdAt)
)
/** One more than a home can have, so that some parents name no node. */
const serviceIdInPool = fc.nat({ max: serviceCount }).map(serviceIdAt)

/** A GetSelector or SetSelector as JSON (the two have the same fields). */
export const channelSelectorJson: fc.Arbitrary<unknown> = fc
  .tuple(
    field("id", channelIdInPool),
    field("parent", serviceIdInPool),
    tagsField,
    field("kind", kindIndex.map((i) => kindAt(i).a))
  )
  .map((parts) => Object.assign({}, ...parts))

export const nodeSelectorJson: fc.Arbitrary<unknown> = fc
  .tuple(
    field("id", serviceIdInPool),
    tagsField,
    fc.option(fc.array(channelSelectorJson, { maxLength: 2 }), { nil: undefined }),
    fc.option(fc.array(channelSelectorJson, { maxLength: 2 }), { nil: undefined })
  )
  .map(([id, tags, inputs, outputs]) => ({
    ...id,
    ...tags,
    ...(inputs === undefined ? {} : { inputs }),
    ...(outputs === undefined ? {} : { outputs })
  }))

export const channelSelectorsJson = fc.array(channelSelectorJson, { maxLength: 3 })
export const nodeSelectorsJson = fc.array(nodeSelectorJson, { maxLength: 3 })

/**
 * Node listings requiring one input or one output by one field (each id, tag and kind of the pools), one
 * request each: together they ask of every channel a home can have whether some node holds it.
 */
export const everyOneChannelNodeRequest: ReadonlyArray<RequestA> = [
  ...Array.from({ length: getterCount + 1 }, (_, i) => ({ inputs: [{ id: { Exactly: getterIdAt(i) } }] })),
  ...Array.from({ length: setterCount + 1 }, (_, i) => ({ outputs: [{ id: { Exactly: setterIdAt(i) } }] })),
  ...["inputs", "outputs"].flatMap((requirement) => [
    ...tagPool.map((tag) => ({ [requirement]: [{ tags: [tag] }] })),
    ...kindPool.map((kind) => ({ [requirement]: [{ kind: { Exactly: kind.a } }] }))
  ])
].map((selector) => ({ operation: "get_nodes", body: [selector] }))

/** Every value of the pool: one of each writes every setter a home can have. */
export const everyValueJson: ReadonlyArray<unknown> = kindPool.flatMap((k) => k.values)

export const valueJson: fc.Arbitrary<unknown> = fc.constantFrom(...everyValueJson)

const tagsToApply = fc.uniqueArray(fc.constantFrom(...tagPool, "extra"), { minLength: 1, maxLength: 2 })

/** One vocabulary A request: an operation of docs/reference.md §6.3 and its body (`undefined`: no body). */
export interface RequestA {
  readonly operation: string
  readonly body: unknown
}

const request = (operation: string, body: fc.Arbitrary<unknown>): fc.Arbitrary<RequestA> =>
  body.map((b) => ({ operation, body: b }))

const readOperations = ["get_nodes", "get_input_channels", "get_output_channels", "get_channel_value"]

/** Reads: every A read operation with selectors, or, sometimes, with no body (everything). */
export const readRequestA: fc.Arbitrary<RequestA> = fc.oneof(
  { weight: 3, arbitrary: request("get_nodes", nodeSelectorsJson) },
  { weight: 3, arbitrary: request("get_input_channels", channelSelectorsJson) },
  { weight: 3, arbitrary: request("get_output_channels", channelSelectorsJson) },
  { weight: 3, arbitrary: request("get_channel_value", channelSelectorsJson) },
  { weight: 1, arbitrary: fc.constantFrom(...readOperations).map((operation) => ({ operation, body: undefined })) }
)

/** Any A request of the REST interface, writes and tag operations included (both put forms). */
export const requestA: fc.Arbitrary<RequestA> = fc.oneof(
  { weight: 4, arbitrary: readRequestA },
  { weight: 1, arbitrary: request("put_node_tag", fc.record({ set: nodeSelectorsJson, tags: tagsToApply })) },
  { weight: 1, arbitrary: request("delete_node_tag", fc.record({ set: nodeSelectorsJson, tags: tagsToApply })) },
  { weight: 1, arbitrary: request("put_input_tag", fc.record({ set: channelSelectorsJson, tags: tagsToApply })) },
  { weight: 1, arbitrary: request("delete_output_tag", fc.record({ set: channelSelectorsJson, tags: tagsToApply })) },
  { weight: 1, arbitrary: request("put_channel_value", fc.tuple(channelSelectorsJson, valueJson)) },
  { weight: 1, arbitrary: request("put_channel_value", fc.record({ set: channelSelectorsJson, value: valueJson })) }
)
