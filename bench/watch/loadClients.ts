import { createInterface } from "node:readline"
import { type Arrivals, makeArrivals } from "./Arrivals.ts"
import { type LeanWebSocket, openLeanWebSocket } from "./LeanWebSocket.ts"

/**
 * The watchers of the watch benchmark, in their own process so that they do not share the gateway's
 * core: `node loadClients.js URL N GETTERS TOKEN,TOKEN,…`. Opens N sockets (the tokens taken in turn: a
 * token holds a bounded number of sockets) that read everything and one that stops reading
 * once registered, registers each on every getter, prints `ready` once every socket has had its
 * announcements, then records values (bench/watch/Arrivals.ts). On the line `reset` from stdin it
 * forgets the values seen so far (the warm-up) and prints `ok`. On the line `report FROM TO CHANGES`
 * it prints, as JSON, how many values sent in [FROM, TO] (epoch ms, sub-millisecond) each reading
 * socket received, and the percentiles of two latencies: from the value's sending (the time it
 * carries) and from its change in the gateway (CHANGES: a JSON array of [sent, changed] pairs, epoch
 * ms), then exits. The sockets are LeanWebSockets: with `ws`, the latencies measured were this
 * process's more than the gateway's (p99 3 to 26 ms higher, bench/RESULTS.md).
 */
const [url = "", countText = "0", gettersText = "0", tokensText = ""] = process.argv.slice(2)
const count = Number(countText)
const getters = Number(gettersText)
const tokens = tokensText.split(",")

// Latency histogram: 0.1 ms buckets up to 10 s.
const buckets = new Uint32Array(100_000)
/** What each reading socket received. */
const received: Array<Arrivals> = []

let opened = 0

const open = (index: number | undefined) =>
  new Promise<void>((resolve, reject) => {
    const token = tokens[opened++ % tokens.length] ?? ""
    const arrivals = makeArrivals()
    if (index !== undefined) received[index] = arrivals
    let announced = 0
    let socket: LeanWebSocket | undefined
    const onMessage = (payload: Buffer) => {
      const now = performance.timeOrigin + performance.now()
      if (payload.indexOf(`{"GetterAdded"`) === 0) {
        if (++announced === getters) {
          if (index === undefined) socket?.pause()
          resolve()
        }
        return
      }
      const kind = payload.indexOf(`"ExtNumeric"`)
      const at = kind < 0 ? -1 : payload.indexOf(`"value":`, kind)
      if (at < 0) return
      const sent = Number.parseFloat(payload.toString("latin1", at + 8, at + 40))
      arrivals.push(sent, now)
      tally(buckets, now - sent)
    }
    openLeanWebSocket(url, { authorization: `Bearer ${token}` }, onMessage).then((lean) => {
      socket = lean
      lean.send(JSON.stringify({ select: {} }))
    }, reject)
  })

const tally = (histogram: Uint32Array, latency: number) => {
  const bucket = Math.min(histogram.length - 1, Math.max(0, Math.round(latency * 10)))
  histogram[bucket] = (histogram[bucket] ?? 0) + 1
}

/** The latencies from each value's change in the gateway, of the values sent in [from, to]. */
const fromChange = (changes: ReadonlyArray<readonly [number, number]>, from: number, to: number): Uint32Array => {
  const changedAt = new Map(changes)
  const histogram = new Uint32Array(buckets.length)
  for (const arrivals of received) {
    arrivals.forEach((sent, arrived) => {
      const changed = changedAt.get(sent)
      if (sent >= from && sent <= to && changed !== undefined) tally(histogram, arrived - changed)
    })
  }
  return histogram
}

const percentile = (histogram: Uint32Array, p: number): number => {
  let total = 0
  for (const n of histogram) total += n
  let seen = 0
  for (let i = 0; i < histogram.length; i++) {
    seen += histogram[i] ?? 0
    if (seen >= total * p) return i / 10
  }
  return Number.NaN
}

const main = async () => {
  // Connect in groups: a thousand handshakes at once would measure the accept queue, not watching.
  for (let i = 0; i < count; i += 50) await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => open(i + j)))
  await open(undefined)
  buckets.fill(0)
  console.log("ready")
  for await (const line of createInterface({ input: process.stdin })) {
    const [command, from = "0", to = "0", changes = "[]"] = line.split(" ")
    if (command === "reset") {
      buckets.fill(0)
      for (const arrivals of received) arrivals.clear()
      console.log("ok")
    }
    if (command !== "report") continue
    const [start, end] = [Number(from), Number(to)]
    const counts = received.map((arrivals) => {
      let inWindow = 0
      arrivals.forEach((sent) => {
        if (sent >= start && sent <= end) inWindow++
      })
      return inWindow
    })
    const afterChange = fromChange(JSON.parse(changes), start, end)
    console.log(JSON.stringify({
      min: Math.min(...counts),
      max: Math.max(...counts),
      p50: percentile(buckets, 0.5),
      p99: percentile(buckets, 0.99),
      changeP50: percentile(afterChange, 0.5),
      changeP99: percentile(afterChange, 0.99)
    }))
    process.exit(0)
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
