import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type GatewayOverHttp, startGateway } from "../support/gatewayOverHttp.ts"

/**
 * docs/vocabulary-b.md, "A lone Binary value as raw bytes", says in prose which `Accept` headers get
 * the demo camera's image and which keep the JSON result map: the paragraph after its example, whose
 * code spans before "prefer the image" prefer it and those after keep JSON. Each is tried on the demo home.
 */
const markdown = readFileSync(join(import.meta.dirname, "..", "..", "docs", "vocabulary-b.md"), "utf8")
const section = markdown.slice(markdown.indexOf("### A lone Binary value as raw bytes"), markdown.indexOf("## send_values"))
const paragraph = section.slice(section.lastIndexOf("```") + 3).trim().split("\n\n")[0] ?? ""
const [preferring = "", keeping = ""] = paragraph.split("prefer the image")

/** The `Accept` values of a stretch of prose: its code spans naming a media range. */
const acceptsIn = (prose: string): ReadonlyArray<string> =>
  [...prose.matchAll(/`([^`]+)`/g)].map((m) => (m[1] ?? "").replace(/^Accept: /, "")).filter((value) => value.includes("/"))

describe("docs/vocabulary-b.md: which Accept headers get the demo camera's bytes", () => {
  let gateway: GatewayOverHttp
  beforeAll(async () => {
    gateway = await startGateway({}, { home: Option.none() })
  })
  afterAll(() => gateway.close())

  const read = async (accept: string) => {
    const response = await fetch(`${gateway.baseUrl}/api/v1/channels/get`, {
      method: "POST",
      headers: { authorization: `Bearer ${gateway.token}`, accept },
      body: JSON.stringify({ id: "getter:front-door-camera-image@sim" })
    })
    await response.arrayBuffer()
    return response.headers.get("content-type")
  }

  it("finds both lists in the prose", () => {
    expect(acceptsIn(preferring).length).toBeGreaterThan(0)
    expect(acceptsIn(keeping).length).toBeGreaterThan(0)
  })

  it.each(acceptsIn(preferring))("Accept: %s gets the image", async (accept) => {
    expect(await read(accept)).toBe("image/gif")
  })

  it.each(acceptsIn(keeping))("Accept: %s keeps the JSON result map", async (accept) => {
    expect(await read(accept)).toBe("application/json")
  })
})
