import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { translateToB } from "../../src/vocabulary/Translation.ts"
import { home } from "../http/vocabularyA/homes.ts"
import { type GatewayOverHttp, startGateway } from "../support/gatewayOverHttp.ts"
import { runGateway } from "../support/spawnGateway.ts"
import { decoded, sendA, sendB } from "./answers.ts"

/**
 * `gateway translate OPERATION BODY`, the real command (dist/gateway.js: `npm run build` first):
 * what it prints is `translateToB`'s answer, and sent to a gateway it answers as the A request does.
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
    const exited = await runGateway(["translate", "get_channel_value", JSON.stringify(body)])
    expect({ code: exited.code, stderr: exited.stderr }).toEqual({ code: 0, stderr: "" })
    const printed: unknown = JSON.parse(exited.stdout)
    expect(printed).toEqual({
      operation: "fetch_values",
      method: "GET",
      path: "/api/v1/channels/get",
      body: [{ kind: "OnOff" }, { service: "service:nowhere@test" }]
    })
    const translated = decoded(translateToB("get_channel_value", Option.some(body)))
    expect(printed).toEqual(translated)
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
    const exited = await runGateway(["translate", "put_channel_value", JSON.stringify(body)])
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
    const read = await runGateway(["translate", "get_nodes", ""])
    expect({ code: read.code, stderr: read.stderr }).toEqual({ code: 0, stderr: "" })
    expect(JSON.parse(read.stdout)).toEqual({ operation: "get_services", method: "GET", path: "/api/v1/services" })
    const write = await runGateway(["translate", "put_channel_value", " "])
    expect({ code: write.code, stdout: write.stdout }).toEqual({ code: 1, stdout: "" })
    expect(write.stderr).toContain("body: required, a JSON document")
  })

  it("refuses a body vocabulary A does not read: exit code 1, the place on stderr, nothing on stdout", async () => {
    const exited = await runGateway(["translate", "get_nodes", JSON.stringify({ tags: ["light"] })])
    expect({ code: exited.code, stdout: exited.stdout }).toEqual({ code: 1, stdout: "" })
    expect(exited.stderr).toContain("body: expected an array of NodeSelector, got an object")
  })
})
