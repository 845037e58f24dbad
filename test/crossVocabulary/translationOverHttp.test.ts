import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { startGateway } from "../support/gatewayOverHttp.ts"
import { sendA, sendB, stateInA, stateThroughB, translated } from "./answers.ts"
import { randomHomeFile, readRequestA, requestA } from "./randomHomeFile.ts"

/**
 * The law of docs/architecture.md ("Translating A to B"): an A request and its B translation (`translateToB`, what `gateway translate`
 * prints) give the same answer on the same home, checked over HTTP on random simulator home files.
 * Each home gets its own gateway (they start in milliseconds), used for a whole list of requests.
 */

describe("an A read and its B translation, sent to one gateway", () => {
  it("select the same nodes/services, inputs/getters, outputs/setters and the same values", async () => {
    await fc.assert(
      fc.asyncProperty(randomHomeFile, fc.array(readRequestA, { minLength: 1, maxLength: 10 }), async (home, requests) => {
        const gateway = await startGateway(home)
        try {
          for (const request of requests) {
            const inA = await sendA(gateway, request)
            const inB = await sendB(gateway, request.operation, translated(request))
            expect({ request, answer: inB }).toEqual({ request, answer: inA })
            expect(inA.status).toBe(200)
          }
        } finally {
          await gateway.close()
        }
      }),
      { numRuns: 40 }
    )
  })
})

describe("an A request sent to one gateway and its B translation sent to its twin (same home)", () => {
  it("answer the same and leave the two gateways in the same state, tags and writes included", async () => {
    await fc.assert(
      fc.asyncProperty(randomHomeFile, fc.array(requestA, { minLength: 1, maxLength: 10 }), async (home, requests) => {
        const throughA = await startGateway(home)
        const throughB = await startGateway(home)
        try {
          for (const request of requests) {
            const inA = await sendA(throughA, request)
            const inB = await sendB(throughB, request.operation, translated(request))
            expect({ request, answer: inB }).toEqual({ request, answer: inA })
            expect(inA.status).toBe(200)
          }
          expect(await stateThroughB(throughB)).toEqual(await stateInA(throughA))
        } finally {
          await Promise.all([throughA.close(), throughB.close()])
        }
      }),
      { numRuns: 30 }
    )
  })
})
