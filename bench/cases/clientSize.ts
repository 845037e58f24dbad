import * as Effect from "effect/Effect"
import { BenchFailed, type SelfMeasuredCase } from "../Harness.ts"
import type { Row } from "../Row.ts"
import { breakdown, browserBundleSize } from "../support/BrowserBundle.ts"

/**
 * The client's weight in a browser (issue 38, item 3): a three-line app on the Promise face of the
 * installed package (`@home-gateway/client`, packages/client: `npm run build` first), bundled by
 * esbuild (minified) and gzipped at level 9, against the floor any app on `effect` pays for the same
 * read: effect's own fetch client and a Schema check of the answer. The note gives what the client's
 * bytes are made of, by package and folder. test/bench/clientSize.test.ts gates the figure.
 */

/** The app: create a client, read every getter's value, print it. */
export const clientApp = `import { createClient, everyGetter } from "@home-gateway/client"
const client = createClient({ url: "http://127.0.0.1:3000", token: "a-token", vocabulary: "b" })
console.log(await client.fetch([everyGetter]))
`

/** The same read on effect alone: its fetch client, the answer checked by a schema. */
const effectFloorApp = `import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { FetchHttpClient, HttpClient, HttpClientResponse } from "effect/http"
const Values = Schema.Array(Schema.Struct({ key: Schema.String, result: Schema.Unknown }))
const read = HttpClient.post("http://127.0.0.1:3000/api/v1/fetch_values").pipe(Effect.flatMap(HttpClientResponse.schemaBodyJson(Values)))
console.log(await Effect.runPromise(Effect.provide(read, FetchHttpClient.layer)))
`

const kB = (bytes: number) => `${(bytes / 1_000).toFixed(1)} kB`

const name = "client size: a three-line Promise-face app in a browser, gzip -9"

export const cases: ReadonlyArray<SelfMeasuredCase> = [{
  name,
  measure: () =>
    Effect.gen(function*() {
      const [floor, app] = yield* Effect.tryPromise({
        try: () => Promise.all([browserBundleSize(effectFloorApp), browserBundleSize(clientApp)]),
        catch: (cause) => new BenchFailed({ benchCase: name, contender: "esbuild", cause })
      })
      const row: Row = {
        name,
        baseline: "effect alone: fetch client and a Schema check",
        subject: "@home-gateway/client, Promise face",
        baselineFigures: `${kB(floor.gzipped)} (${kB(floor.minified)} minified)`,
        subjectFigures: `${kB(app.gzipped)} (${kB(app.minified)} minified)`,
        ratio: floor.gzipped / app.gzipped,
        note: `the client app's minified bytes: ${breakdown(app)}`
      }
      return [row]
    })
}]
