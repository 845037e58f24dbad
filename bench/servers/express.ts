import express, { type NextFunction, type Request, type Response } from "express"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import { listenOnLoopback } from "../http/BareServer.ts"
import { decodeHandWrittenFixture } from "./HandWrittenFixture.ts"
import { type Answer, handWritten, unauthorized } from "./HandWritten.ts"

/**
 * What the gateway is compared with besides bare Node: the same requests answered by a minimal Express
 * server written by hand, the way WebThings Gateway is built: `node express.js FIXTURE` (see
 * HandWrittenFixture). Express's JSON body parser, then the work of HandWritten.
 */
const work = handWritten(decodeHandWrittenFixture(readFileSync(process.argv[2] ?? "", "utf8")))

const send = (response: Response, { status, json }: Answer): void => {
  response.status(status).json(json)
}

const app = express()
app.use(express.json())
app.use("/api/v1", (request: Request, response: Response, next: NextFunction) => {
  if (!work.admits(request.get("authorization"))) return send(response, unauthorized)
  next()
})
app.get("/health", (_request, response) => {
  response.json({ status: "ok" })
})
app.get("/api/v1/services", (_request, response) => {
  response.json(work.services)
})
app.get("/api/v1/nodes", (_request, response) => {
  response.json(work.nodes)
})
app.put("/api/v1/channels/get", (request, response) => send(response, work.read(false, request.body)))
app.get("/api/v1/channels/value", (request, response) => send(response, work.read(true, request.body)))
app.put("/api/v1/channels/set", (request, response) => send(response, work.write(false, request.body)))
app.post("/api/v1/channels/value", (request, response) => send(response, work.write(true, request.body)))

listenOnLoopback(createServer(app))
