import { request } from "node:http"
import { parseArgs } from "node:util"
import WebSocket from "ws"

/**
 * The load of the registration cases, in a process of its own: `node registrationClients.js --url URL
 * --token T --frame JSON --events N [--clients C] [--registrations R | --seconds S] [--health]`. Each of
 * C clients, in a loop: opens a watch socket, sends `--frame`, reads until N events have come (the
 * registration's own: additions, and current values if it asked for them), closes. It stops after R
 * registrations in all, or after S seconds; with `--health` it asks `GET /health` every 10 ms meanwhile,
 * one request at a time. `--clients 0 --seconds S --health` only asks `/health`, for S seconds: run beside
 * the clients, in a process of its own, it times the gateway's answers, not the clients' own event loop,
 * which 8 clients reading tens of thousands of frames each keep busy for seconds. Prints one line of
 * JSON: registrations done, and /health's p99 in ms (`null` without `--health`).
 */
const { values } = parseArgs({
  options: {
    url: { type: "string" },
    token: { type: "string" },
    frame: { type: "string" },
    events: { type: "string" },
    clients: { type: "string", default: "1" },
    registrations: { type: "string" },
    seconds: { type: "string" },
    health: { type: "boolean", default: false }
  }
})
const url = values.url ?? ""
const events = Number(values.events)
const limit = values.registrations === undefined ? Number.POSITIVE_INFINITY : Number(values.registrations)
const endsAt = values.seconds === undefined ? Number.POSITIVE_INFINITY : performance.now() + Number(values.seconds) * 1_000
let started = 0
let done = 0

/** One registration on a socket of its own, until its `events` events have come. */
const register = () =>
  new Promise<void>((resolve, reject) => {
    const socket = new WebSocket(`${url.replace(/^http/, "ws")}/api/v1/channels/watch`, {
      headers: { authorization: `Bearer ${values.token ?? ""}` }
    })
    let seen = 0
    socket.on("open", () => socket.send(values.frame ?? "{}"))
    socket.on("message", () => {
      if (++seen === events) socket.close()
    })
    socket.on("close", () => (seen >= events ? resolve() : reject(new Error(`the socket closed after ${seen} of ${events} events`))))
    socket.on("error", reject)
  })

const client = async () => {
  while (started < limit && performance.now() < endsAt) {
    started++
    await register()
    done++
  }
}

/** One `GET /health`, timed. */
const health = () =>
  new Promise<number>((resolve, reject) => {
    const sent = performance.now()
    request(`${url}/health`, (response) => {
      response.resume()
      response.on("end", () => resolve(performance.now() - sent))
    }).on("error", reject).end()
  })

const healthLatencies: Array<number> = []
let loading = true
const pollHealth = async () => {
  while (loading) {
    healthLatencies.push(await health())
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** With no clients, the health poller alone, for `--seconds`: a process of its own, whose event loop no client delays. */
const registering = () =>
  Number(values.clients) === 0
    ? new Promise((resolve) => setTimeout(resolve, endsAt - performance.now()))
    : Promise.all(Array.from({ length: Number(values.clients) }, client))

const main = async () => {
  const polling = values.health ? pollHealth() : Promise.resolve()
  await registering()
  loading = false
  await polling
  const sorted = healthLatencies.sort((a, b) => a - b)
  const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]
  console.log(JSON.stringify({ registrations: done, healthP99Ms: p99 ?? null }))
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
