import { describe, expect, it } from "vitest"
import { agreementInWords } from "../../src/dashboard/state/AnswerAgreement.ts"
import { typeErrorUntold } from "../../src/vocabulary/AnswerTranslation.ts"

/** Whether the Migration page says that A's and B's answers to the same request say the same. */

const ok = (json: unknown) => ({ status: 200, statusText: "OK", text: JSON.stringify(json) })
const refused = (status: number, sentence: string) => ({ status, statusText: "", text: JSON.stringify(sentence) })

describe("agreementInWords", () => {
  it("finds the same results in A's pairs and B's map, whatever the order of B's keys", () => {
    const a = ok([["getter:a@sim", { Ok: { OnOff: "On" } }], ["getter:b@sim", { Err: { NoSuchGet: "getter:b@sim" } }]])
    const b = ok({ "getter:b@sim": { Error: { NoSuchGetter: "getter:b@sim" } }, "getter:a@sim": { OnOff: "On" } })
    expect(agreementInWords("get_channel_value", a, b)).toBe("A's answer, said in vocabulary B, is B's answer.")
  })

  it("says where they differ", () => {
    const a = ok([["getter:a@sim", { Ok: { OnOff: "On" } }]])
    const b = ok({ "getter:a@sim": { OnOff: "Off" } })
    expect(agreementInWords("get_channel_value", a, b)).toBe(
      `They differ: A's answer, said in vocabulary B, is {"getter:a@sim":{"OnOff":"On"}}; B answered {"getter:a@sim":{"OnOff":"Off"}}.`
    )
    expect(agreementInWords("put_node_tag", ok(1), ok(0))).toBe("They differ: A's answer, said in vocabulary B, is 1; B answered 0.")
  })

  it("compares what A's answer can say, and names what it cannot (a TypeError's types)", () => {
    const a = ok([["setter:lock@sim", { Err: { TypeError: [] } }], ["setter:heat@sim", { Ok: null }]])
    const b = ok({ "setter:lock@sim": { Error: { TypeError: { expected: "DoorLocked", got: "Temperature" } } }, "setter:heat@sim": null })
    expect(agreementInWords("put_channel_value", a, b)).toBe(
      `A's answer, said in vocabulary B, is B's answer. A's answer says less for setter:lock@sim: ${typeErrorUntold}.`
    )
  })

  it("does not compare a listing, and says why in the translation's words", () => {
    expect(agreementInWords("get_output_channels", ok([]), ok([]))).toBe(
      "Not compared: B's channels carry an adapter, which A's channels do not say: send the B request to read them."
    )
  })

  it("compares refusals by their status only, each said in its vocabulary's words", () => {
    expect(agreementInWords("put_channel_value", refused(400, "body: required"), refused(400, "body: required, a JSON document")))
      .toBe("Both were refused with 400, each in its own words.")
    expect(agreementInWords("get_nodes", ok([]), refused(403, "this token does not grant the \"read\" right")))
      .toBe("They differ: A answered 200, B answered 403.")
  })
})
