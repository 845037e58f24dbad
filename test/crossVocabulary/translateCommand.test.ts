import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { typeErrorUntold } from "../../src/vocabulary/AnswerTranslation.ts"
import { type RequestB, translateToB } from "../../src/api/Translation.ts"
import { home } from "../http/vocabularyA/homes.ts"
import { type GatewayOverHttp, startGateway } from "../support/gatewayOverHttp.ts"
import { runGatewayInProcess } from "../support/gatewayCli.ts"
import { gatewayBin, nodeBin, runGateway } from "../support/spawnGateway.ts"
import { decoded, sendA, sendB } from "./answers.ts"

/** The B request sent as it says; its answer as B writes it. */
const sendRaw = async (g: GatewayOverHttp, request: RequestB): Promise<unknown> => (await g.call(request.method, request.path, request.body)).json

/**
 * `gateway translate OPERATION BODY`: what it prints is `translateToB`'s answer, and sent to a gateway it
 * answers as the A request does; with `--answer`, the B answer it prints is what B answers.
 * A read of standard input, which prints what it read, and a refusal run the real command as a process
 * (dist/gateway.js: `npm run build` first); the others run the bin's program in this process (gatewayCli.ts),
 * what a process adds being a third of a second of CPU and nothing they check.
 * (translationOverHttp checks `translateToB` itself on random homes and requests.)
 */

let gateway: GatewayOverHttp | undefined
let twin: GatewayOverHttp | undefined
beforeAll(async () => {
  gateway = await startGateway(home)
  twin = await startGateway(home)
})
afterAll(() => Promise.all([gateway?.close(), twin?.close()]))

const running = (g: GatewayOverHttp | undefined): GatewayOverHttp => {
  if (g === undefined) throw new Error("the gateway did not start")
  return g
}

describe("gateway translate", () => {
  it("prints the fetch_values request of a get_channel_value, which reads the same values", async () => {
    const body = [{ kind: { Exactly: { OnOff: [] } } }, { parent: { Exactly: "service:nowhere@test" } }]
    const exited = await runGatewayInProcess(["translate", "get_channel_value", JSON.stringify(body)])
    expect({ code: exited.code, stderr: exited.stderr }).toEqual({ code: 0, stderr: "" })
    const printed: unknown = JSON.parse(exited.stdout)
    expect(printed).toEqual({
      operation: "fetch_values",
      method: "GET",
      path: "/api/v1/channels/get",
      aliases: [{ method: "PUT", path: "/api/v1/channels/get" }, { method: "POST", path: "/api/v1/channels/get" }],
      body: [{ kind: "OnOff" }, { service: "service:nowhere@test" }]
    })
    const translated = decoded(translateToB("get_channel_value", Option.some(body)))
    expect(printed).toMatchObject(translated)
    const request = { operation: "get_channel_value", body }
    const inA = await sendA(running(gateway), request)
    expect(inA).toEqual({
      status: 200,
      answer: [
        ["getter:porch-light-on@test", { Ok: { OnOff: "Off" } }],
        ["service:nowhere@test", { Err: { NoSuchNode: "service:nowhere@test" } }]
      ]
    })
    expect(await sendB(running(gateway), request.operation, translated)).toEqual(inA)
  })

  it("prints the send_values request of a put_channel_value pair, which writes and answers the same", async () => {
    const body = [[{ tags: ["main"] }], { OnOff: "On" }]
    const exited = await runGatewayInProcess(["translate", "put_channel_value", JSON.stringify(body)])
    expect({ code: exited.code, stderr: exited.stderr }).toEqual({ code: 0, stderr: "" })
    const printed: unknown = JSON.parse(exited.stdout)
    expect(printed).toEqual({
      operation: "send_values",
      method: "PUT",
      path: "/api/v1/channels/set",
      body: [{ select: [{ tags: ["main"] }], value: { OnOff: "On" } }]
    })
    const translated = decoded(translateToB("put_channel_value", Option.some(body)))
    expect(printed).toEqual(translated)
    const request = { operation: "put_channel_value", body }
    const inA = await sendA(running(gateway), request)
    expect(inA).toEqual({
      status: 200,
      answer: [["setter:porch-light-on@test", { Ok: null }]]
    })
    expect(await sendB(running(twin), request.operation, translated)).toEqual(inA)
    const read = { operation: "get_channel_value", body: undefined }
    expect(await sendA(running(twin), read)).toEqual(await sendA(running(gateway), read))
  })

  it("reads a blank body as no body: a read of everything, which a write refuses", async () => {
    const read = await runGatewayInProcess(["translate", "get_nodes", ""])
    expect({ code: read.code, stderr: read.stderr }).toEqual({ code: 0, stderr: "" })
    expect(JSON.parse(read.stdout)).toEqual({
      operation: "get_services",
      method: "GET",
      path: "/api/v1/services",
      aliases: [{ method: "POST", path: "/api/v1/services" }]
    })
    const write = await runGatewayInProcess(["translate", "put_channel_value", " "])
    expect({ code: write.code, stdout: write.stdout }).toEqual({ code: 1, stdout: "" })
    expect(write.stderr).toContain("body: required, a JSON document")
  })

  it("with --answer, prints the B answer of a recorded get_channel_value too: what B answers at the POST alias", async () => {
    // Channels no test writes to.
    const body = [{ kind: { Exactly: { DoorLocked: [] } } }, { id: { Exactly: "getter:nowhere@test" } }, { parent: { Exactly: "service:nowhere@test" } }]
    const inA = await running(gateway).call("GET", "/api/v1/channels/value", body)
    expect(inA.status).toBe(200)
    const exited = await runGatewayInProcess(["translate", "get_channel_value", JSON.stringify(body), "--answer", JSON.stringify(inA.json)])
    expect({ code: exited.code, stderr: exited.stderr }).toEqual({ code: 0, stderr: "" })
    const printed = JSON.parse(exited.stdout) as { body: unknown; aliases: ReadonlyArray<{ method: string; path: string }>; answer: unknown }
    expect(printed).toEqual({
      operation: "fetch_values",
      method: "GET",
      path: "/api/v1/channels/get",
      aliases: [{ method: "PUT", path: "/api/v1/channels/get" }, { method: "POST", path: "/api/v1/channels/get" }],
      body: [{ kind: "DoorLocked" }, { id: "getter:nowhere@test" }, { service: "service:nowhere@test" }],
      answer: {
        "getter:back-door-lock@test": { DoorLocked: "Locked" },
        "getter:nowhere@test": { Error: { NoSuchGetter: "getter:nowhere@test" } },
        "service:nowhere@test": { Error: { NoSuchService: "service:nowhere@test" } }
      }
    })
    const post = printed.aliases.find((alias) => alias.method === "POST")
    const inB = await running(gateway).call(post?.method ?? "", post?.path ?? "", printed.body)
    expect({ status: inB.status, answer: inB.json }).toEqual({ status: 200, answer: printed.answer })
  })

  it("with --answer alone, prints only the B answer; a TypeError is untold: A does not say its types", async () => {
    const body = [[{ id: { Exactly: "setter:porch-light-on@test" } }, { id: { Exactly: "setter:back-door-lock@test" } }], { OnOff: "On" }]
    const inA = await running(twin).call("POST", "/api/v1/channels/value", body)
    expect(inA.json).toEqual([
      ["setter:back-door-lock@test", { Err: { TypeError: [] } }],
      ["setter:porch-light-on@test", { Ok: null }]
    ])
    const exited = await runGatewayInProcess(["translate", "put_channel_value", "--answer", JSON.stringify(inA.json)])
    expect({ code: exited.code, stderr: exited.stderr }).toEqual({ code: 0, stderr: "" })
    expect(JSON.parse(exited.stdout)).toEqual({
      operation: "send_values",
      answer: { "setter:porch-light-on@test": null },
      untold: { "setter:back-door-lock@test": typeErrorUntold }
    })
    const inB = await sendRaw(running(twin), decoded(translateToB("put_channel_value", Option.some(body))))
    expect(inB).toEqual({
      "setter:back-door-lock@test": { Error: { TypeError: { expected: "DoorLocked", got: "OnOff" } } },
      "setter:porch-light-on@test": null
    })
  })

  it("reads the answer from standard input with --answer -: a recorded watch session's events", async () => {
    const events = [{ GetAdded: "getter:porch-light-on@test" }, { Value: { from: "getter:porch-light-on@test", value: { OnOff: "On" } } }]
    const exited = await runGateway(
      [JSON.stringify(events)],
      10_000,
      {},
      ["bash", "-c", `printf '%s' "$0" | "${nodeBin}" "${gatewayBin}" translate register_channel_watch --answer -`]
    )
    expect({ code: exited.code, stderr: exited.stderr }).toEqual({ code: 0, stderr: "" })
    expect(JSON.parse(exited.stdout)).toEqual({
      operation: "watch_channels",
      answer: [{ GetterAdded: "getter:porch-light-on@test" }, { Value: { from: "getter:porch-light-on@test", value: { OnOff: "On" } } }]
    })
  })

  it("refuses an answer A does not write, or one B says more of: exit code 1, the reason on stderr", async () => {
    const malformed = await runGatewayInProcess(["translate", "get_channel_value", "--answer", `[["getter:x@test", {"Ok": 3}]]`])
    expect({ code: malformed.code, stdout: malformed.stdout }).toEqual({ code: 1, stdout: "" })
    expect(malformed.stderr).toContain("answer[0][1].Ok: expected a value")
    const listing = await runGatewayInProcess(["translate", "get_nodes", "--answer", "[]"])
    expect({ code: listing.code, stdout: listing.stdout }).toEqual({ code: 1, stdout: "" })
    expect(listing.stderr).toContain("B's services carry an adapter and properties, which A's nodes do not say")
  })

  it("refuses a body vocabulary A does not read: exit code 1, the place on stderr, nothing on stdout", async () => {
    const exited = await runGateway(["translate", "get_nodes", JSON.stringify({ tags: ["light"] })])
    expect({ code: exited.code, stdout: exited.stdout }).toEqual({ code: 1, stdout: "" })
    expect(exited.stderr).toContain("body: expected an array of NodeSelector, got an object")
  })
})
