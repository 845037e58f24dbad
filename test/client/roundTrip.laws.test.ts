import { Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type Operation, type Operations, operations } from "../../src/client/Operations.ts"
import type { WatchRegistration } from "../../src/domain/Watch.ts"
import type { TagBodyRead, Vocabulary } from "../../src/vocabulary/ChannelTagBody.ts"
import type { Decoded } from "../../src/vocabulary/common/InvalidInput.ts"
import { decodeWatchFrame, decodeWatchServerFrame, encodeWatchEvent, encodeWatchFrame } from "../../src/vocabulary/WatchFrame.ts"
import * as D from "../arbitraries/domain.ts"

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
const asRequest = (name: keyof Operations, vocabulary: Vocabulary, read: unknown): unknown => {
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

const cases: { readonly [K in keyof Operations]: Case } = {
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

const runs = { numRuns: 60 }

describe.each(["a", "b"] as const)("the client in vocabulary %s and the server", (vocabulary: Vocabulary) => {
  describe.each(Object.keys(cases) as ReadonlyArray<keyof Operations>)("%s", (name) => {
    const operation = operations[vocabulary][name] as Operation<unknown, unknown>
    const { request, answer } = cases[name]

    it("the server reads a request as the client wrote it", () => {
      fc.assert(fc.property(request, (x) => {
        const read = served(operation, x)
        if (read !== undefined) {
          const request = asRequest(name, vocabulary, read)
          expect(asRequest(name, vocabulary, served(operation, request))).toEqual(request)
        }
      }), runs)
    })

    it("the client reads an answer as the server wrote it", () => {
      fc.assert(fc.property(answer, (y) => {
        const read = succeeded(answered(operation, y))
        expect(succeeded(answered(operation, read))).toEqual(read)
      }), runs)
    })
  })

  const registration: fc.Arbitrary<WatchRegistration> = fc.array(D.watchTarget(D.getterSelector()), { maxLength: 3 })

  it("the server reads a watch registration as the client wrote it", () => {
    const served = (r: WatchRegistration) =>
      Result.isSuccess(encodeWatchFrame(vocabulary, r))
        ? succeeded(decodeWatchFrame(throughText(succeeded(encodeWatchFrame(vocabulary, r))), vocabulary))
        : undefined
    fc.assert(fc.property(registration, (x) => {
      const read = served(x)
      if (read !== undefined) expect(served(read)).toEqual(read)
    }), runs)
  })

  it("the client reads a watch event as the server wrote it", () => {
    const read = (e: Parameters<typeof encodeWatchEvent>[1]) => {
      const written = encodeWatchEvent(vocabulary, e)
      return written._tag === "Some" ? succeeded(decodeWatchServerFrame(vocabulary, throughText(written.value))) : undefined
    }
    fc.assert(fc.property(D.watchEvent, (x) => {
      const once = read(x)
      if (once !== undefined && once._tag !== "FrameRefused") expect(read(once)).toEqual(once)
      else expect(x._tag === "WatchRefused" && vocabulary === "a").toBe(true)
    }), runs)
  })
})
