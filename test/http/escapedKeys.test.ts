import { Option } from "effect"
import { describe, expect, it } from "vitest"
import { sharedGateway } from "../support/hookedGateway.ts"

const noteKind = { vendor: "acme", adapter: "notes", kind: "note", type: "Json" }

/** Two setters of Json values, one per client. */
const home = {
  adapter: "simulator@escaped.test",
  services: [{ id: "service:notes@esc", setters: [{ id: "setter:note-a@esc", kind: noteKind }, { id: "setter:note-b@esc", kind: noteKind }] }]
}

/** send_values of one Json value, its JSON written by hand: the escapes are the client's. */
const sendValues = (setter: string, json: string): string => `{"select": {"id": "${setter}"}, "value": {"Json": ${json}}}`

describe("a body's object keys written with escapes", () => {
  const { gateway } = sharedGateway(home)

  // V8's JSON.parse, once a text has made the transition of an object with a key `\` after `a`, reads
  // the next such object's escaped key of one character as `\` (src/vocabulary/common/EscapedJson.ts).
  it("reach the device as the client wrote them, whatever another client's body held before", async () => {
    const other = await gateway().createToken({ user: "other" })
    const put = (token: string, setter: string, json: string) =>
      fetch(`${gateway().baseUrl}/api/v1/channels/set`, {
        method: "PUT",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: sendValues(setter, json)
      })
    expect((await put(other.token, "setter:note-a@esc", String.raw`{"a": 0, "\\": 1}`)).status).toBe(200)
    expect((await put(gateway().token, "setter:note-b@esc", String.raw`{"a": 0, "\n": 1, "\u00e9\"": {"a": 0, "\/": 2}}`)).status)
      .toBe(200)
    expect(await gateway().lastSent("setter:note-a@esc")).toEqual(Option.some({ _tag: "Json", value: { a: 0, "\\": 1 } }))
    const sent = await gateway().lastSent("setter:note-b@esc")
    expect(sent).toEqual(Option.some({ _tag: "Json", value: { a: 0, "\n": 1, "\u00e9\"": { a: 0, "/": 2 } } }))
    expect(Option.map(sent, (value) => value._tag === "Json" && Object.keys(value.value as object))).toEqual(Option.some(["a", "\n", "\u00e9\""]))
  })
})
