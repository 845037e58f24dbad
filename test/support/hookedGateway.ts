import { afterAll, afterEach, beforeAll, beforeEach } from "vitest"
import type { GatewayOptions } from "../../src/GatewayOptions.ts"
import { withoutTimes } from "../docs/docExamples.ts"
import { type GatewayOverHttp, startGateway } from "./gatewayOverHttp.ts"

/** A response as the tests compare it: status and JSON body, every timestamp read as `"<time>"` (docExamples.ts `withoutTimes`). */
export interface Answer {
  readonly status: number
  readonly body: unknown
}

/** One request over HTTP; a string `body` is sent as it is, anything else as JSON. */
export type Call = (method: string, path: string, body?: unknown) => Promise<Answer>

export const answer = async (gateway: GatewayOverHttp, method: string, path: string, body?: unknown): Promise<Answer> => {
  const reply = await gateway.call(method, path, body)
  return { status: reply.status, body: withoutTimes(reply.json) }
}

/** A gateway started by a hook, or a clear failure when it did not start. */
export interface HookedGateway {
  readonly call: Call
  readonly gateway: () => GatewayOverHttp
}

const hooked = (current: () => GatewayOverHttp | undefined): HookedGateway => {
  const gateway = () => {
    const running = current()
    if (running === undefined) throw new Error("the gateway did not start")
    return running
  }
  return { gateway, call: (method, path, body) => answer(gateway(), method, path, body) }
}

/** One gateway for the whole file or `describe`: for tests that read, or write what no other test looks at. */
export const sharedGateway = (home: unknown, config: Partial<GatewayOptions> = {}): HookedGateway => {
  let running: GatewayOverHttp | undefined
  beforeAll(async () => {
    running = await startGateway(home, config)
  })
  afterAll(() => running?.close())
  return hooked(() => running)
}

/** A new gateway for every test: for tests whose writes others would see. */
export const freshGateway = (home: unknown, config: Partial<GatewayOptions> = {}): HookedGateway => {
  let running: GatewayOverHttp | undefined
  beforeEach(async () => {
    running = await startGateway(home, config)
  })
  afterEach(async () => {
    await running?.close()
    running = undefined
  })
  return hooked(() => running)
}

/** The ids of a list of services or channels, in the order answered. */
export const ids = (body: unknown): ReadonlyArray<unknown> =>
  Array.isArray(body) ? body.map((item: unknown) => (typeof item === "object" && item !== null && "id" in item ? item.id : item)) : []

/** The tags of each service or channel of a list, by id. */
export const tagsById = (body: unknown): Record<string, unknown> =>
  Object.fromEntries(
    (Array.isArray(body) ? body : []).flatMap((item: unknown) =>
      typeof item === "object" && item !== null && "id" in item && "tags" in item ? [[String(item.id), item.tags]] : []
    )
  )
