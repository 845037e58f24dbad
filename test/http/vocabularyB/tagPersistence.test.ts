import { describe, expect, it } from "vitest"
import { freshDataDir } from "../../support/gatewayTestLayer.ts"
import { startGateway } from "../../support/gatewayOverHttp.ts"
import { answer, tagsById } from "../../support/hookedGateway.ts"
import { home } from "./homes.ts"

/** Tags belong to ids and are persisted (docs/reference.md §6.5): a gateway started again on the same data folder keeps them. */

describe("tags across a restart", () => {
  it("keeps service and channel tags written by clients when the gateway starts again on the same data folder", async () => {
    const dataDir = freshDataDir()
    const first = await startGateway(home, { dataDir })
    try {
      expect(await answer(first, "POST", "/api/v1/services/tag", { services: { id: "service:garden@b" }, tags: ["lawn"] }))
        .toEqual({ status: 200, body: 1 })
      expect(await answer(first, "POST", "/api/v1/channels/tag", { set: { kind: "OnOff" }, tags: ["switch"] })).toEqual({
        status: 200,
        body: 4
      })
      expect(await answer(first, "DELETE", "/api/v1/channels/tag", { set: { id: "setter:kitchen-light-on@b" }, tags: ["switch"] }))
        .toEqual({ status: 200, body: 1 })
    } finally {
      await first.close()
    }
    const second = await startGateway(home, { dataDir })
    try {
      expect(tagsById((await answer(second, "GET", "/api/v1/services", { tags: ["lawn"] })).body)).toEqual({
        "service:garden@b": ["lawn", "outside"]
      })
      expect(tagsById((await answer(second, "GET", "/api/v1/channels/getters", { tags: ["switch"] })).body)).toEqual({
        "getter:kitchen-light-on@b": ["switch"],
        "getter:porch-light-on@b": ["main", "switch"]
      })
      expect(tagsById((await answer(second, "GET", "/api/v1/channels/setters", { tags: ["switch"] })).body)).toEqual({
        "setter:porch-light-on@b": ["main", "switch"]
      })
    } finally {
      await second.close()
    }
  })

  it("starts a gateway on another data folder without them", async () => {
    const dataDir = freshDataDir()
    const first = await startGateway(home, { dataDir })
    try {
      await answer(first, "POST", "/api/v1/services/tag", { services: {}, tags: ["everywhere"] })
    } finally {
      await first.close()
    }
    const other = await startGateway(home, { dataDir: freshDataDir() })
    try {
      expect(await answer(other, "GET", "/api/v1/services", { tags: ["everywhere"] })).toEqual({ status: 200, body: [] })
    } finally {
      await other.close()
    }
  })
})
