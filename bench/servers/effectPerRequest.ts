import { Context, Data, Effect } from "effect"
import { readFileSync } from "node:fs"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { listenOnLoopback } from "../http/BareServer.ts"
import { decodeHandWrittenFixture } from "./HandWrittenFixture.ts"
import { type Answer, type HandWritten, handWritten, unauthorized } from "./HandWritten.ts"

/**
 * What Effect itself costs on the request path: an Effect program per request on plain `node:http`,
 * `node effectPerRequest.js FIXTURE` (see HandWrittenFixture). The context is built once; each request runs
 * one program in it: the token check, the JSON parse (each failing as a typed error), the work of
 * HandWritten read from the context, and the answer encoded. No router: a Map from method and path.
 */
class Work extends Context.Service<Work, HandWritten>()("bench/Work") {}

class Refused extends Data.TaggedError("Refused")<{ readonly answer: Answer }> {}

const context = Context.make(Work, handWritten(decodeHandWrittenFixture(readFileSync(process.argv[2] ?? "", "utf8"))))
const run = Effect.runCallbackWith(context)

const authorized = (request: IncomingMessage) =>
  Work.use((work) => (work.admits(request.headers.authorization) ? Effect.succeed(work) : Effect.fail(new Refused({ answer: unauthorized }))))

const parsed = (body: Buffer) =>
  Effect.try({
    try: (): unknown => (body.length === 0 ? undefined : JSON.parse(body.toString("utf8"))),
    catch: () => new Refused({ answer: { status: 400, json: "the body is not JSON" } })
  })

type Program = (request: IncomingMessage, body: Buffer) => Effect.Effect<Answer, Refused, Work>

const withToken = (answer: (work: HandWritten, body: unknown) => Answer): Program => (request, body) =>
  Effect.flatMap(authorized(request), (work) => Effect.map(parsed(body), (json) => answer(work, json)))

const routes = new Map<string, Program>([
  ["GET /health", () => Effect.succeed({ status: 200, json: { status: "ok" } })],
  ["GET /api/v1/services", withToken((work) => ({ status: 200, json: work.services }))],
  ["GET /api/v1/nodes", withToken((work) => ({ status: 200, json: work.nodes }))],
  ["PUT /api/v1/channels/get", withToken((work, body) => work.read(false, body))],
  ["GET /api/v1/channels/value", withToken((work, body) => work.read(true, body))],
  ["PUT /api/v1/channels/set", withToken((work, body) => work.write(false, body))],
  ["POST /api/v1/channels/value", withToken((work, body) => work.write(true, body))]
])

const notFound: Answer = { status: 404, json: "no such route" }

const respond = (response: ServerResponse, { status, json }: Answer): void => {
  const bytes = Buffer.from(JSON.stringify(json))
  response.writeHead(status, { "content-type": "application/json", "content-length": bytes.length })
  response.end(bytes)
}

const server = createServer((request, response) => {
  const chunks: Array<Buffer> = []
  request.on("data", (chunk: Buffer) => chunks.push(chunk))
  request.on("end", () => {
    const program = routes.get(`${request.method} ${request.url}`)
    if (program === undefined) return respond(response, notFound)
    const answered = program(request, Buffer.concat(chunks)).pipe(Effect.catchTag("Refused", (refused) => Effect.succeed(refused.answer)))
    run(answered, { onExit: (exit) => respond(response, exit._tag === "Success" ? exit.value : { status: 500, json: "internal error" }) })
  })
})

listenOnLoopback(server)
