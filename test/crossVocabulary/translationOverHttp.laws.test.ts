import * as fc from "fast-check"
import { expect } from "vitest"
import { law } from "../laws/law.ts"
import { startGateway } from "../support/gatewayOverHttp.ts"
import { sendA, sendB, stateInA, stateThroughB, translated } from "./answers.ts"
import { randomHomeFile, readRequestA, requestA } from "./randomHomeFile.ts"

/**
 * The law of docs/architecture.md ("Translating A to B"): an A request and its B translation (`translateToB`, what `gateway translate`
 * prints) give the same answer on the same home, checked over HTTP on random simulator home files.
 * Each home gets its own gateway (they start in milliseconds), used for a whole list of requests.
 */

/** An answer that holds something: not an empty list. */
const holdsSomething = (answer: unknown): boolean => !Array.isArray(answer) || answer.length > 0
const answering = { of: "requests answered with something", floor: 0.2 }

law("A ≡ B over HTTP: an A read and its B translation, sent to one gateway, answer the same", answering, { laws: 40, npmTest: 20 }, (note) =>
  fc.asyncProperty(randomHomeFile, fc.array(readRequestA, { minLength: 1, maxLength: 10 }), async (home, requests) => {
    const gateway = await startGateway(home)
    try {
      for (const request of requests) {
        const inA = await sendA(gateway, request)
        const inB = await sendB(gateway, request.operation, translated(request))
        expect({ request, answer: inB }).toEqual({ request, answer: inA })
        expect(inA.status).toBe(200)
        note(holdsSomething(inA.answer))
      }
    } finally {
      await gateway.close()
    }
  }), 120_000)

law("A ≡ B over HTTP: an A request and its B translation, sent to twin gateways, answer the same and leave the same state", answering, { laws: 30, npmTest: 15 }, (note) =>
  fc.asyncProperty(randomHomeFile, fc.array(requestA, { minLength: 1, maxLength: 10 }), async (home, requests) => {
    const throughA = await startGateway(home)
    const throughB = await startGateway(home)
    try {
      for (const request of requests) {
        const inA = await sendA(throughA, request)
        const inB = await sendB(throughB, request.operation, translated(request))
        expect({ request, answer: inB }).toEqual({ request, answer: inA })
        expect(inA.status).toBe(200)
        note(holdsSomething(inA.answer))
      }
      expect(await stateThroughB(throughB)).toEqual(await stateInA(throughA))
    } finally {
      await Promise.all([throughA.close(), throughB.close()])
    }
  }), 120_000)
