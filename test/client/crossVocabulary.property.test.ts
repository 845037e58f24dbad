import { writeFileSync } from "node:fs"
import { Effect, Option, Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { Client, ClientWatchEvent } from "../../src/client/index.ts"
import { operations } from "../../src/client/Operations.ts"
import type { Channel } from "../../src/domain/Channel.ts"
import { exactly } from "../../src/domain/Constraint.ts"
import { type AdapterId, ChannelId, Tag } from "../../src/domain/Identifier.ts"
import type { SendTarget, TagRequest } from "../../src/domain/Request.ts"
import { anyService, type ChannelSelector, channelSelector, everyGetter, everySetter, type ServiceSelector } from "../../src/domain/Selector.ts"
import type { Service } from "../../src/domain/Service.ts"
import type { WatchRegistration } from "../../src/domain/Watch.ts"
import { Dispatch } from "../../src/gateway/Dispatch.ts"
import { Registry } from "../../src/gateway/Registry.ts"
import { Tags } from "../../src/gateway/Tags.ts"
import * as A from "../../src/vocabulary/a/index.ts"
import type { Vocabulary } from "../../src/vocabulary/ChannelTagBody.ts"
import { ValueInputJson } from "../../src/vocabulary/common/ValueJson.ts"
import { decode } from "../../src/vocabulary/common/WireIssue.ts"
import { decoded } from "../crossVocabulary/answers.ts"
import { channelSelectorsJson, everyValueJson, nodeSelectorsJson, randomHomeFile, valueJson } from "../crossVocabulary/randomHomeFile.ts"
import { eventuallyAsync } from "../support/eventually.ts"
import { type GatewayOverHttp, gatewayForSuite, startGateway } from "../support/gatewayOverHttp.ts"
import { clientOf, eventsUntil } from "./clients.ts"

/**
 * The client in vocabulary A and in vocabulary B, on random homes: for canonical requests both can say,
 * the same canonical answers (but for what A does not say, `None` in A's: the adapter of a service and
 * of a channel, a service's properties), the same as the gateway's own services in process, and the
 * same watch events. Requests are generated as A JSON over the pools of the random homes (so that selectors hit,
 * miss and overlap) and read into the model.
 */

const getSelectors = channelSelectorsJson.map((json) => decoded(decode(A.GetSelectorsJson, json)))
const setSelectors = channelSelectorsJson.map((json) => decoded(decode(A.SetSelectorsJson, json)))
const nodeSelectors = nodeSelectorsJson.map((json) => decoded(decode(A.NodeSelectorsJson, json)))
const tags = fc.uniqueArray(fc.constantFrom("red", "blue", "extra").map(Tag.make), { minLength: 1, maxLength: 2 })
const tagRequest = <S>(selectors: fc.Arbitrary<ReadonlyArray<S>>) => fc.record({ selectors, tags })

type Request =
  | { readonly op: "services"; readonly body: ReadonlyArray<ServiceSelector> | undefined }
  | { readonly op: "getters" | "fetch"; readonly body: ReadonlyArray<ChannelSelector> | undefined }
  | { readonly op: "setters"; readonly body: ReadonlyArray<ChannelSelector> | undefined }
  | { readonly op: "send"; readonly body: ReadonlyArray<SendTarget> }
  | { readonly op: "tagServices" | "untagServices"; readonly body: TagRequest<ServiceSelector> }
  | { readonly op: "tagChannels" | "untagChannels"; readonly body: TagRequest<ChannelSelector> }

const maybe = <A>(body: fc.Arbitrary<A>) => fc.option(body, { nil: undefined, freq: 5 })

const readRequest: fc.Arbitrary<Request> = fc.oneof(
  maybe(nodeSelectors).map((body) => ({ op: "services", body }) as const),
  maybe(getSelectors).map((body) => ({ op: "getters", body }) as const),
  maybe(setSelectors).map((body) => ({ op: "setters", body }) as const),
  maybe(getSelectors).map((body) => ({ op: "fetch", body }) as const)
)

const anyRequest: fc.Arbitrary<Request> = fc.oneof(
  { weight: 3, arbitrary: readRequest },
  {
    weight: 1,
    arbitrary: fc.record({ selectors: setSelectors, value: valueJson.map((json) => decoded(decode(ValueInputJson, json))) })
      .map((target) => ({ op: "send", body: [target] }) as const)
  },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom("tagServices", "untagServices"), tagRequest(nodeSelectors)).map(([op, body]) => ({ op, body }) as const) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom("tagChannels", "untagChannels"), tagRequest(getSelectors)).map(([op, body]) => ({ op, body }) as const) }
)

/** Whether both vocabularies can say the request (a read without selectors always can). */
const sayable = (request: Request): boolean =>
  request.body === undefined ||
  (["a", "b"] as const).every((v) => Result.isSuccess((operations[v][request.op].write as (body: Request["body"]) => Result.Result<unknown, unknown>)(request.body)))

/** Times move with every report of a device: compared without them. */
const timeless = (answer: unknown): unknown =>
  JSON.parse(JSON.stringify(answer, (key, value) => (key === "updated" || key === "lastSeen" ? "<time>" : value)))

const ask = (client: Client, request: Request): Promise<unknown> => {
  switch (request.op) {
    case "services":
      return client.services(request.body)
    case "getters":
      return client.getters(request.body)
    case "setters":
      return client.setters(request.body)
    case "fetch":
      return client.fetch(request.body)
    case "send":
      return client.send(request.body)
    case "tagServices":
    case "untagServices":
      return client[request.op](request.body.selectors, request.body.tags)
    case "tagChannels":
    case "untagChannels":
      return client[request.op](request.body.selectors, request.body.tags)
  }
}

const nobody = { user: Option.none() }

/** What `vocabulary` says of a service's or a channel's adapter: A nothing. */
const adapterIn = (vocabulary: Vocabulary, of: { readonly adapter: AdapterId }) =>
  vocabulary === "b" ? Option.some(of.adapter) : Option.none()

/** A channel of the model as the client answers it in `vocabulary`: what both say, and its adapter in B. */
const channelIn = (vocabulary: Vocabulary) => (channel: Channel) => ({ ...A.channelInA(channel), adapter: adapterIn(vocabulary, channel) })

/** A service of the model as the client answers it in `vocabulary`: in B, its adapter and properties too. */
const serviceIn = (vocabulary: Vocabulary) => (service: Service) => ({
  ...A.nodeInA(service),
  adapter: adapterIn(vocabulary, service),
  properties: vocabulary === "b" ? Option.some(service.properties) : Option.none(),
  getters: service.getters.map(channelIn(vocabulary)),
  setters: service.setters.map(channelIn(vocabulary))
})

/**
 * The same request of the gateway's own services, in process, once (a write repeated would answer what
 * the first changed): the answer as each vocabulary says it.
 */
const inProcess = async (gateway: GatewayOverHttp, request: Request): Promise<(vocabulary: Vocabulary) => unknown> => {
  switch (request.op) {
    case "services": {
      const services = await gateway.run(Registry.use((r) => r.services(request.body ?? [anyService])))
      return (vocabulary) => services.map(serviceIn(vocabulary))
    }
    case "getters":
    case "setters": {
      const every = request.op === "getters" ? everyGetter : everySetter
      const channels = await gateway.run(Registry.use((r) => r.channels(request.body ?? [every])))
      return (vocabulary) => channels.map(channelIn(vocabulary))
    }
    case "fetch":
      return gateway.run(Dispatch.use((d) => d.fetch(request.body ?? [everyGetter], nobody))).then((results) => () => A.resultsInA(results))
    case "send":
      return gateway.run(Dispatch.use((d) => d.send(request.body, nobody))).then((results) => () => A.resultsInA(results))
    case "tagServices":
    case "untagServices":
      return gateway.run(Tags.use((t) => t.tagServices(request.op === "tagServices" ? "add" : "remove", request.body.selectors, request.body.tags)).pipe(Effect.orDie))
        .then((changed) => () => changed)
    case "tagChannels":
    case "untagChannels":
      return gateway.run(Tags.use((t) => t.tagChannels(request.op === "tagChannels" ? "add" : "remove", request.body.selectors, request.body.tags)).pipe(Effect.orDie))
        .then((changed) => () => changed)
  }
}

/**
 * Each request through the client in A, in B, and of the services in process: the same answers, but for
 * what A does not say (None in A's).
 */
const answeredAlike = async (inA: Client, inB: Client, direct: GatewayOverHttp, requests: ReadonlyArray<Request>): Promise<void> => {
  for (const request of requests) {
    const expected = await inProcess(direct, request)
    expect({ request, answer: timeless(await ask(inA, request)) }).toEqual({ request, answer: timeless(expected("a")) })
    expect({ request, answer: timeless(await ask(inB, request)) }).toEqual({ request, answer: timeless(expected("b")) })
  }
}

/** The ids of the services `gateway` serves. */
const servedIds = (gateway: GatewayOverHttp) => gateway.run(Registry.use((r) => r.services([anyService]))).then((now) => now.map((s): string => s.id))

let reloads = 0
/**
 * `gateway` serving `home`: its home file rewritten, with a service named for this reload last, whose
 * arrival with the home's other services says the gateway reloaded it.
 */
const reloaded = async (gateway: GatewayOverHttp, home: unknown): Promise<void> => {
  const reload = `service:reload-${++reloads}@prop`
  const marked = { ...(home as HomeFile), services: [...(home as HomeFile).services, { id: reload, getters: [], setters: [] }] }
  writeFileSync(gateway.homeFile, JSON.stringify(marked))
  const expected = marked.services.map((s) => s.id).sort()
  expect((await eventuallyAsync(() => servedIds(gateway), (ids) => ids.includes(reload) && ids.length === expected.length)).sort()).toEqual(expected)
}

describe("the client in vocabulary A and in vocabulary B", () => {
  // Reads change nothing: one gateway serves every run's home in turn.
  const readGateway = gatewayForSuite({ services: [] })

  it("answers reads the same, and as the gateway's services do in process", async () => {
    await fc.assert(
      fc.asyncProperty(randomHomeFile, fc.array(readRequest.filter(sayable), { minLength: 1, maxLength: 6 }), async (home, requests) => {
        const gateway = readGateway()
        await reloaded(gateway, home)
        const [inA, inB] = [clientOf(gateway, "a"), clientOf(gateway, "b")]
        try {
          await answeredAlike(inA, inB, gateway, requests)
        } finally {
          await Promise.all([inA.close(), inB.close()])
        }
      }),
      { numRuns: 15 }
    )
  })

  it("answers writes and tag edits the same on twin gateways, as the services do on a third", async () => {
    await fc.assert(
      fc.asyncProperty(randomHomeFile, fc.array(anyRequest.filter(sayable), { minLength: 1, maxLength: 6 }), async (home, requests) => {
        const [throughA, throughB, direct] = await Promise.all([startGateway(home), startGateway(home), startGateway(home)])
        const [inA, inB] = [clientOf(throughA, "a"), clientOf(throughB, "b")]
        try {
          await answeredAlike(inA, inB, direct, requests)
          // The twins end as the third: every service alike.
          await answeredAlike(inA, inB, direct, [{ op: "services", body: undefined }])
        } finally {
          await Promise.all([inA.close(), inB.close()])
          await Promise.all([throughA.close(), throughB.close(), direct.close()])
        }
      }),
      { numRuns: 10 }
    )
  })
})

interface HomeFile {
  readonly services: ReadonlyArray<{ readonly id: string; readonly getters: ReadonlyArray<{ readonly value?: unknown }> }>
}

/** Another value of the same type from the pool, if it has one. */
const otherValue = (value: unknown): unknown => {
  const [type] = Object.keys(value as object)
  return everyValueJson.find((v) => type !== undefined && type in (v as object) && JSON.stringify(v) !== JSON.stringify(value)) ?? value
}

/** The home changed: its first service gone, the other getters' values changed. */
const changed = (home: unknown): HomeFile => {
  const { services } = home as HomeFile
  const moved = services.slice(1).map((service) => ({
    ...service,
    getters: service.getters.map((getter) => (getter.value === undefined ? getter : { ...getter, value: otherValue(getter.value) }))
  }))
  return { ...(home as object), services: moved }
}

/** Then a getter no random home has, whose announcement ends what a test waits for. */
const marker = ChannelId.make("getter:marker@prop")
const withMarker = (home: HomeFile): unknown => {
  const markerService = { id: "service:marker@prop", getters: [{ id: marker, kind: "OnOff", value: { OnOff: "On" } }], setters: [] }
  return { ...home, services: [...home.services, markerService] }
}

/** Values of every kind of the pool, each sent to every setter: a setter that drives a getter moves its value. */
const writes = fc.subarray([...everyValueJson]).map((values) =>
  values.map((json): SendTarget => ({ selectors: [everySetter], value: decoded(decode(ValueInputJson, json)) }))
)

/** Random targets, with every getter's values or not, and the marker's announcement. */
const registration = fc.tuple(getSelectors, fc.boolean()).chain(([selectors, everything]) =>
  fc.array(fc.boolean(), { minLength: selectors.length, maxLength: selectors.length }).map((values): WatchRegistration => [
    ...selectors.map((selector, i) => ({ selector, values: { _tag: values[i] === true ? "Always" : "Never" } as const, topology: true, initialValues: false })),
    { selector: everything ? everyGetter : channelSelector({ id: exactly(marker), mechanism: exactly("getter") }), values: { _tag: "Always" }, topology: true, initialValues: false }
  ])
)

describe("the watches of the client in vocabulary A and in vocabulary B", () => {
  it("deliver the same events", async () => {
    await fc.assert(
      fc.asyncProperty(
        randomHomeFile,
        registration,
        writes,
        async (home, watched, targets) => {
          const gateway = await startGateway(home)
          const [inA, inB] = [clientOf(gateway, "a"), clientOf(gateway, "b")]
          const untilMarker = (event: ClientWatchEvent) => event._tag === "ChannelAdded" && event.channel === marker
          try {
            const [eventsA, eventsB] = [eventsUntil(inA.watch(watched), untilMarker), eventsUntil(inB.watch(watched), untilMarker)]
            // Both sockets registered: each announces the channels it watches before anything else happens.
            await eventuallyAsync(gateway.liveWatches, (live) => live === 2)
            for (const target of targets) await inB.send([target])
            const next = changed(home)
            writeFileSync(gateway.homeFile, JSON.stringify(next))
            await eventuallyAsync(() => gateway.run(Registry.use((r) => r.services([anyService]))), (now) => now.length === next.services.length)
            writeFileSync(gateway.homeFile, JSON.stringify(withMarker(next)))
            expect(await eventsA).toEqual(await eventsB)
          } finally {
            await Promise.all([inA.close(), inB.close()])
            await gateway.close()
          }
        }
      ),
      { numRuns: 8 }
    )
  })
})
