import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { once } from "node:events"
import { createServer, get, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { getHeapSpaceStatistics } from "node:v8"
import { settleMemory, writing } from "../src/MemoryAfterStart.ts"

const MiB = 1024 * 1024

/** What V8 holds for its young generation now. */
const youngGeneration = (): number => getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0

describe("settleMemory", () => {
  it("shrinks the young generation that allocating what lives on grew, and leaves no gc function in the global scope", () => {
    // What a start does: much allocated, most of it kept, so V8 grows its young generation.
    const kept: Array<{ readonly i: number }> = []
    for (let i = 0; i < 300_000; i++) kept.push({ i })
    expect(youngGeneration()).toBeGreaterThan(8 * MiB)
    Effect.runSync(settleMemory)
    expect(youngGeneration()).toBeLessThanOrEqual(2 * MiB)
    expect(kept.length).toBe(300_000)
    expect("gc" in globalThis).toBe(false)
  })
})

describe("writing", () => {
  it("tells an answer whose bytes a client has not read yet from one that has left", async () => {
    // More than the kernel's buffers of both ends hold, so that the answer waits for its reader.
    const body = Buffer.alloc(32 * MiB, 0x61)
    const server = createServer((_, response) => response.end(body))
    server.listen(0, "127.0.0.1")
    await once(server, "listening")
    try {
      const { port } = server.address() as AddressInfo
      expect(writing()).toBe(false)
      const request = get({ host: "127.0.0.1", port, path: "/" })
      const [response] = (await once(request, "response")) as [IncomingMessage]
      response.pause()
      // The answer's head has come; the rest waits for the client to read.
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(writing()).toBe(true)
      let read = 0
      response.on("data", (chunk: Buffer) => (read += chunk.length))
      response.resume()
      await once(response, "end")
      expect(read).toBe(body.length)
      // The server's write is finished within a few turns of the event loop after its last bytes were read.
      for (let turn = 0; turn < 100 && writing(); turn++) await new Promise((resolve) => setTimeout(resolve, 10))
      expect(writing()).toBe(false)
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })
})
