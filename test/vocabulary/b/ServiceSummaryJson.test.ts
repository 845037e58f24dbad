import * as fc from "fast-check"
import * as Result from "effect/Result"
import { describe, expect, it } from "vitest"
import { viewings } from "../../../src/client/Views.ts"
import { readServiceSummaries, type ServiceSummary } from "../../../src/vocabulary/b/ServiceSummaryJson.ts"
import type { Service } from "../../../src/domain/Service.ts"
import { ServicesJson } from "../../../src/vocabulary/b/index.ts"
import { formatPath } from "../../../src/vocabulary/common/InvalidInput.ts"
import { decode } from "../../../src/vocabulary/common/WireIssue.ts"
import * as D from "../../arbitraries/domain.ts"

/**
 * The home page reads B's listing of services in summary (src/vocabulary/b/ServiceSummaryJson.ts):
 * it must read what the client reads, field for field, and refuse what the client refuses among the
 * fields it reads, saying where.
 */

/** What the client's view of a service says that the page uses. */
const asThePageUsesIt = (service: Service): ServiceSummary => {
  const view = viewings.b.service(service)
  const channel = ({ id, mechanism, kind, tags }: ServiceSummary["getters"][number]) => ({ id, mechanism, kind, tags })
  return { id: view.id, tags: view.tags, properties: view.properties, getters: view.getters.map(channel), setters: view.setters.map(channel) }
}

/** The listing as the gateway writes it, parsed back as the page has it. */
const written = (services: ReadonlyArray<Service>): unknown => JSON.parse(JSON.stringify(ServicesJson.write(services)))

/** The reader's refusal in words, as the page says it. */
const refusal = (json: unknown): string => {
  const read = readServiceSummaries(json)
  return Result.isFailure(read) ? `${formatPath(read.failure.path, "")}: ${read.failure.reason}` : "read"
}

const lamp = () => ({
  id: "service:lamp@sim",
  adapter: "simulator@gateway.local",
  tags: ["room:Hall"],
  properties: { name: "Lamp" },
  getters: [{
    id: "getter:lamp-on@sim",
    service: "service:lamp@sim",
    adapter: "simulator@gateway.local",
    mechanism: "getter",
    kind: "OnOff",
    tags: [],
    updated: null,
    last_seen: null
  }],
  setters: []
})

describe("the home page's reading of the services", () => {
  it("reads every listing the gateway writes as the client reads it", () => {
    fc.assert(fc.property(fc.uniqueArray(D.service, { selector: (s) => s.id, maxLength: 4 }), (services) => {
      const json = written(services)
      const client = decode(ServicesJson, json)
      expect(Result.isSuccess(client)).toBe(true)
      expect(readServiceSummaries(json)).toEqual(Result.succeed(Result.isSuccess(client) ? client.success.map(asThePageUsesIt) : []))
    }))
  })

  it("reads a listing whatever the fields the page does not use hold", () => {
    const odd = { ...lamp(), adapter: 3, getters: [{ ...lamp().getters[0], updated: "yesterday", service: null }] }
    expect(refusal([odd])).toBe("read")
  })

  it("refuses a listing that is not one, naming what it expected", () => {
    expect(refusal({ services: [] })).toBe("answer: expected an array of services, got an object")
    expect(refusal([3])).toBe("answer[0]: expected a service, got 3")
  })

  it("refuses a service or channel without a field it reads, naming the field", () => {
    const { properties: _, ...withoutProperties } = lamp()
    expect(refusal([withoutProperties])).toBe(`answer[0]: missing field "properties"`)
    const { kind: _kind, ...withoutKind } = lamp().getters[0] ?? {}
    expect(refusal([{ ...lamp(), getters: [withoutKind] }])).toBe(`answer[0].getters[0]: missing field "kind"`)
  })

  it("refuses an unknown kind, a tag with a control character, a channel in the other list, and a property that is not text", () => {
    const channel = { ...lamp().getters[0] }
    expect(refusal([{ ...lamp(), getters: [{ ...channel, kind: "Toaster" }] }])).toMatch(/^answer\[0\]\.getters\[0\]\.kind: unknown kind "Toaster"/)
    expect(refusal([{ ...lamp(), tags: ["room:Hall", "bad\u0007"] }])).toBe("answer[0].tags[1]: must not contain control characters")
    expect(refusal([{ ...lamp(), getters: [], setters: [channel] }])).toBe(`answer[0].setters[0].mechanism: expected "setter" here`)
    expect(refusal([{ ...lamp(), properties: { name: 1 } }])).toBe("answer[0].properties.name: expected a string, got 1")
    expect(refusal([{ ...lamp(), id: "" }])).toBe(`answer[0].id: expected a service id (a string), got ""`)
  })
})
