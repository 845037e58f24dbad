import Fastify, { type FastifyReply } from "fastify"
import { readFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { listenOnLoopback } from "../http/BareServer.ts"
import { decodeHandWrittenFixture } from "./HandWrittenFixture.ts"
import { type Answer, handWritten, unauthorized } from "./HandWritten.ts"

/**
 * The next peer after Express: the same requests answered by a minimal Fastify 5 server written by hand,
 * `node fastify.js FIXTURE` (see HandWrittenFixture): Fastify's own JSON body parser (a GET's body read by hand), a hook checking the token, then the work of HandWritten.
 */
const work = handWritten(decodeHandWrittenFixture(readFileSync(process.argv[2] ?? "", "utf8")))

let server: Server | undefined
const app = Fastify({
  serverFactory: (handler) => {
    server = createServer(handler)
    return server
  }
})

/** A GET's JSON body, which Fastify does not parse (it parses the bodies of the methods that usually have one): read by hand. */
const jsonOf = async (raw: AsyncIterable<Buffer>): Promise<unknown> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of raw) chunks.push(chunk)
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString("utf8"))
}

const send = (reply: FastifyReply, { status, json }: Answer) => reply.code(status).send(json)

app.addHook("onRequest", async (request, reply) => {
  if (request.url.startsWith("/api/v1/") && !work.admits(request.headers.authorization)) return send(reply, unauthorized)
})
app.get("/health", async () => ({ status: "ok" }))
app.get("/api/v1/services", async () => work.services)
app.get("/api/v1/nodes", async () => work.nodes)
app.put("/api/v1/channels/get", (request, reply) => send(reply, work.read(false, request.body)))
app.get("/api/v1/channels/value", async (request, reply) => send(reply, work.read(true, await jsonOf(request.raw))))
app.put("/api/v1/channels/set", (request, reply) => send(reply, work.write(false, request.body)))
app.post("/api/v1/channels/value", (request, reply) => send(reply, work.write(true, request.body)))

await app.ready()
if (server !== undefined) listenOnLoopback(server)
