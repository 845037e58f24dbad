import { Result } from "effect"
import * as fc from "fast-check"
import { expect } from "vitest"
import { type Operation, type Operations, operations } from "../../src/client/Operations.ts"
import type { WatchRegistration } from "../../src/domain/Watch.ts"
import type { TagBodyRead, Vocabulary } from "../../src/vocabulary/ChannelTagBody.ts"
import type { Decoded } from "../../src/vocabulary/common/InvalidInput.ts"
import { decodeWatchFrame, decodeWatchServerFrame, encodeWatchEvent, encodeWatchFrame } from "../../src/vocabulary/WatchFrame.ts"
import * as D from "../arbitraries/domain.ts"
import { law } from "../laws/law.ts"

/**
 * The client's encoders and decoders are the server's read backwards: a request the client writes, the
 * server reads as the client meant it, and an answer the server writes, the client reads as the server
 * meant it, in each vocabulary and for each operation, the watch's frames too. Each law is checked
 * through JSON text, and up to what the wire reads in canonical form (tags sorted, durations to the
 * millisecond, selectors that match nothing left out of B's lists: test/vocabulary/wireNormalForms.ts):
 *
 *   request:  x' = server.read(client.write(x)), and server.read(client.write(x')) = x'
 *   answer:   y' = client.read(server.write(y)), and client.read(server.write(y')) = y'
 *
 * so that a field either side drops or changes breaks the second equation, while the first reading may
 * normalize. A request the vocabulary cannot say is skipped (its refusal is tested in errors.test.ts).
 */

const throughText = (json: unknown): unknown => JSON.parse(JSON.stringify(json))

const succeeded = <A>(result: Result.Result<A, { readonly message: string }>): A => {
  if (Result.isFailure(result)) throw new Error(result.failure.message)
  return result.success
}

/** The client's request as the server reads it; `undefined` when the vocabulary cannot say it. */
const served = <B, A>(operation: Operation<B, A>, request: B): unknown => {
  const written = operation.write(request)
  if (Result.isFailure(written)) return undefined
  const body = operation.endpoint.body
  if (body === undefined) throw new Error(`${operation.endpoint.operationId} reads no body`)
  return succeeded(body.read(throughText(written.success), operation.query))
}

/** The server's answer as the client reads it. */
const answered = <B, A>(operation: Operation<B, A>, answer: unknown): Decoded<A> =>
  operation.read(throughText(operation.endpoint.answer.shape?.write(answer)))

/** What the server read, as the client's request: the shared tag path also reads which vocabulary spoke, the client's. */
const asRequest = (name: keyof Operations<unknown, unknown>, vocabulary: Vocabulary, read: unknown): unknown => {
  if (name !== "tagChannels" && name !== "untagChannels") return read
  const { vocabulary: spoken, request } = read as TagBodyRead
  expect(spoken).toBe(vocabulary)
  return request
}

interface Case {
  readonly request: fc.Arbitrary<unknown>
  readonly answer: fc.Arbitrary<unknown>
}

const count = fc.nat()

const cases: { readonly [K in keyof Operations<unknown, unknown>]: Case } = {
  services: { request: fc.array(D.serviceSelector(), { maxLength: 3 }), answer: fc.array(D.service, { maxLength: 3 }) },
  getters: { request: fc.array(D.getterSelector(), { maxLength: 3 }), answer: fc.array(D.channel, { maxLength: 3 }) },
  setters: { request: fc.array(D.setterSelector(), { maxLength: 3 }), answer: fc.array(D.channel, { maxLength: 3 }) },
  fetch: { request: fc.array(D.getterSelector(), { maxLength: 3 }), answer: D.fetchResults },
  send: { request: fc.array(D.sendTarget(), { minLength: 1, maxLength: 1 }), answer: D.sendResults },
  tagServices: { request: D.tagRequest(D.serviceSelector()), answer: count },
  untagServices: { request: D.tagRequest(D.serviceSelector()), answer: count },
  tagChannels: { request: D.tagRequest(D.channelSelector()), answer: count },
  untagChannels: { request: D.tagRequest(D.channelSelector()), answer: count }
}


const names = Object.keys(cases) as ReadonlyArray<keyof Operations<unknown, unknown>>

/** An operation of the client and an input of it, drawn from `pick` of its case. */
const drawn = (pick: (c: Case) => fc.Arbitrary<unknown>) =>
  fc.constantFrom(...names).chain((name) => fc.tuple(fc.constant(name), pick(cases[name])))

/** The request law in `vocabulary`: noted telling when the vocabulary can say the request. */
const requestsRead = (vocabulary: Vocabulary) => (note: (telling: boolean) => void) =>
  fc.property(drawn((c) => c.request), ([name, x]) => {
    const operation = operations[vocabulary][name] as Operation<unknown, unknown>
    const read = served(operation, x)
    note(read !== undefined)
    if (read === undefined) return
    const request = asRequest(name, vocabulary, read)
    expect(asRequest(name, vocabulary, served(operation, request))).toEqual(request)
  })

/** What says nothing: an empty list or map, or a count of 0. */
const empty = (value: unknown): boolean =>
  value === 0 || (Array.isArray(value) ? value.length === 0 : typeof value === "object" && value !== null && Object.keys(value).length === 0)

/** The answer law in `vocabulary`: noted telling when the answer holds something. */
const answersRead = (vocabulary: Vocabulary) => (note: (telling: boolean) => void) =>
  fc.property(drawn((c) => c.answer), ([name, y]) => {
    const operation = operations[vocabulary][name] as Operation<unknown, unknown>
    const read = succeeded(answered(operation, y))
    note(!empty(read))
    expect(succeeded(answered(operation, read))).toEqual(read)
  })

/**
 * Registrations of any targets, and as often of targets both vocabularies can say (A has no ranges and no
 * service tags, B always watches topology): drawn from the first alone, 97 % said nothing in A.
 */
const sayableTarget = fc.record({
  selector: D.getterSelector().map((selector) => ({ ...selector, serviceTags: [] })),
  values: fc.constantFrom({ _tag: "Never" as const }, { _tag: "Always" as const }),
  topology: fc.constant(true),
  initialValues: fc.boolean()
})
const registration: fc.Arbitrary<WatchRegistration> = fc.oneof(
  fc.array(D.watchTarget(D.getterSelector()), { maxLength: 3 }),
  fc.array(sayableTarget, { minLength: 1, maxLength: 3 })
)

/** The registration law in `vocabulary`: noted telling when the vocabulary can say a registration with a target. */
const registrationsRead = (vocabulary: Vocabulary) => (note: (telling: boolean) => void) => {
  const served = (r: WatchRegistration) =>
    Result.isSuccess(encodeWatchFrame(vocabulary, r))
      ? succeeded(decodeWatchFrame(throughText(succeeded(encodeWatchFrame(vocabulary, r))), vocabulary))
      : undefined
  return fc.property(registration, (x) => {
    const read = served(x)
    note(read !== undefined && x.length > 0)
    if (read !== undefined) expect(served(read)).toEqual(read)
  })
}

/** The event law in `vocabulary`: noted telling when the vocabulary can say the event. */
const eventsRead = (vocabulary: Vocabulary) => (note: (telling: boolean) => void) => {
  const read = (e: Parameters<typeof encodeWatchEvent>[1]) => {
    const written = encodeWatchEvent(vocabulary, e)
    return written._tag === "Some" ? succeeded(decodeWatchServerFrame(vocabulary, throughText(written.value))) : undefined
  }
  return fc.property(D.watchEvent, (x) => {
    const once = read(x)
    note(once !== undefined && once._tag !== "FrameRefused")
    if (once !== undefined && once._tag !== "FrameRefused") expect(read(once)).toEqual(once)
    else expect(x._tag === "WatchRefused" && vocabulary === "a").toBe(true)
  })
}

const saidOften = (of: string) => ({ of, floor: 0.3 })
const saidSometimes = (of: string) => ({ of, floor: 0.2 })

law("client round trip (A): the server reads each request as the client wrote it", { of: "requests A can say", floor: 0.15 }, 200, requestsRead("a"))
law("client round trip (B): the server reads each request as the client wrote it", saidOften("requests B can say"), 200, requestsRead("b"))
law("client round trip (A): the client reads each answer as the server wrote it", saidOften("answers holding something"), 200, answersRead("a"))
law("client round trip (B): the client reads each answer as the server wrote it", saidOften("answers holding something"), 200, answersRead("b"))
law("client round trip (A): the server reads a watch registration as the client wrote it", saidSometimes("registrations A can say, with a target"), 60, registrationsRead("a"))
law("client round trip (B): the server reads a watch registration as the client wrote it", saidSometimes("registrations B can say, with a target"), 60, registrationsRead("b"))
law("client round trip (A): the client reads a watch event as the server wrote it", saidOften("events A can say"), 60, eventsRead("a"))
law("client round trip (B): the client reads a watch event as the server wrote it", saidOften("events B can say"), 60, eventsRead("b"))
