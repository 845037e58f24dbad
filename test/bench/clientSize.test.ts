import { describe, expect, it } from "vitest"
import { clientApp } from "../../bench/cases/clientSize.ts"
import { browserBundleSize, partOf } from "../../bench/support/BrowserBundle.ts"

/**
 * The client's weight in a browser may not grow (issue 38, item 3): the bench's three-line Promise-face
 * app (bench/cases/clientSize.ts) on the built package (`npm run build` makes packages/client/dist),
 * bundled by esbuild, minified, gzip -9. A size, not a timing: the same on any machine.
 */

/**
 * 93,327 bytes on 2026-11-28, at commit 7606ca9 (issue 38's start): the same app on
 * `home-gateway/client`, then the only way to import the client. The target is 60 KB; bench/RESULTS.md
 * has the figure of each step and what remains.
 */
const atIssue38sStart = 93_327

describe("the client's weight in a browser", () => {
  it(`bundles a three-line Promise-face app to at most ${atIssue38sStart.toLocaleString("en-US")} bytes gzipped`, async () => {
    const size = await browserBundleSize(clientApp)
    // The app was bundled from the package, with the client in it: not an empty or failed bundle.
    expect(size.parts.map((p) => p.part)).toEqual(expect.arrayContaining(["client: client", "effect: core"]))
    expect(size.gzipped).toBeLessThanOrEqual(atIssue38sStart)
  }, 60_000)

  it("names each input by its package and folder", () => {
    expect(partOf("node_modules/effect/dist/internal/effect.js")).toBe("effect: core")
    expect(partOf("node_modules/effect/dist/Schema.js")).toBe("effect: Schema")
    expect(partOf("node_modules/effect/dist/internal/schema/toCodec.js")).toBe("effect: Schema")
    expect(partOf("node_modules/effect/dist/http/HttpClient.js")).toBe("effect: http")
    expect(partOf("packages/client/dist/vocabulary/a/ChannelJson.js")).toBe("client: vocabulary/a")
    expect(partOf("packages/client/dist/client/index.js")).toBe("client: client")
  })
})
