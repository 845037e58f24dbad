import { createServer, type OutgoingHttpHeader, type OutgoingHttpHeaders, type ServerResponse } from "node:http"
import { Effect } from "effect"
import type { AnyBenchCase, Contender } from "../Harness.ts"
import { connect, requestBytes } from "../http/InProcessClient.ts"
import { securityHeaders } from "../../src/http/transport/ResponseHeaders.ts"

/**
 * The forms Node offers for writing an answer's head, each against the gateway's (`writeHead` with one
 * flat list of the seven headers every JSON answer carries, then `end` with the body's text: NodeAnswer.ts
 * and SecuredResponse), on an in-process connection (bench/http/InProcessClient.ts) so that Node's
 * writer is most of what is timed: the same headers as an object, set one by one, the body as bytes, and
 * the two headers left once the five security headers are dropped (what the contract's headers cost).
 */

const bodyText = JSON.stringify({ status: "ok" })
const bodyBytes = Buffer.from(bodyText)
const own: OutgoingHttpHeaders = { "content-type": "application/json", "content-length": String(bodyBytes.length) }
const headObject: OutgoingHttpHeaders = { ...securityHeaders, ...own }
const headList: ReadonlyArray<OutgoingHttpHeader> = Object.entries(headObject).flatMap(([name, value]) => (value === undefined ? [] : [name, value]))

const gatewayForm = (response: ServerResponse): void => {
  response.writeHead(200, [...headList])
  response.end(bodyText)
}

const forms: ReadonlyArray<readonly [string, (response: ServerResponse) => void]> = [
  ["writeHead with an object", (response) => {
    response.writeHead(200, headObject)
    response.end(bodyText)
  }],
  ["setHeader for each, then writeHead", (response) => {
    for (const [name, value] of Object.entries(headObject)) if (value !== undefined) response.setHeader(name, value)
    response.writeHead(200)
    response.end(bodyText)
  }],
  ["the body as bytes", (response) => {
    response.writeHead(200, [...headList])
    response.end(bodyBytes)
  }],
  ["without the security headers", (response) => {
    response.writeHead(200, own)
    response.end(bodyText)
  }]
]

const request = requestBytes("GET", "/health", {})

/** A server answering every request with `answer`, and a client on an in-process connection to it. */
const answering = (name: string, answer: (response: ServerResponse) => void) =>
  Effect.acquireRelease(
    Effect.sync(() => connect(createServer((_request, response) => answer(response)))),
    (client) => Effect.sync(() => client.close())
  ).pipe(Effect.map((client): Contender => ({ name, run: () => client.send(request) })))

export const cases: ReadonlyArray<AnyBenchCase> = forms.map(([name, form]) => ({
  name: `answer head: ${name}`,
  acquire: Effect.gen(function*() {
    return {
      baseline: yield* answering("writeHead with a flat list (the gateway's)", gatewayForm),
      subject: yield* answering(name, form)
    }
  })
}))
