import { createServer } from "node:http"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import { BenchFailed, type HarnessOptions, inTurn, median, type SelfMeasuredCase } from "../Harness.ts"
import { formatDuration, type Row } from "../Row.ts"
import { adminToken } from "../support/AdminToken.ts"
import { serverCpu, serverProcess } from "../support/ChildProcess.ts"
import { launchChromium } from "../support/Chromium.ts"
import { tempDir } from "../support/TempDir.ts"
import { gatewayBin } from "./loopback.ts"

/**
 * The dashboard's first render (issue 24: under 1 s on this machine): Debian's Chromium, driven by
 * playwright-core, opens `/` of a gateway on the demo home in a new tab with an empty cache, the
 * session already in the tab (as after a sign-in), and the clock runs until the home is on screen with
 * its values (the thermostat's setpoint, the last service's). The baseline, in the same browser: a page
 * of one line from a bare `node:http` server, on screen. Runs alternate; each figure is their median.
 */

const staticPage = "<!doctype html><html lang=\"en\"><title>home</title><p>home</p></html>"

/** The bare page's server, in this process. */
const bareStaticServer = Effect.acquireRelease(
  Effect.callback<{ readonly url: string; readonly close: () => void }>((resume) => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      response.end(staticPage)
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = address !== null && typeof address === "object" ? address.port : 0
      resume(Effect.succeed({ url: `http://127.0.0.1:${port}/`, close: () => server.close() }))
    })
  }),
  (server) => Effect.sync(server.close)
)

/** Chromium, for the scope. */
export const browser = Effect.acquireRelease(
  Effect.promise(launchChromium),
  (b) => Effect.promise(() => b.close())
)

type Browser = Effect.Success<typeof browser>

/** Milliseconds from opening `url` in a new tab (with `token` as its session, if any) to `onScreen` visible. */
const render = (b: Browser, url: string, token: string | undefined, onScreen: string) =>
  Effect.promise(async () => {
    const context = await b.newContext()
    try {
      if (token !== undefined) await context.addInitScript(`sessionStorage.setItem("gateway.session", ${JSON.stringify(token)})`)
      const page = await context.newPage()
      const started = performance.now()
      await page.goto(url)
      await page.getByText(onScreen, { exact: true }).first().waitFor({ state: "visible", timeout: 30_000 })
      return performance.now() - started
    } finally {
      await context.close()
    }
  })

const measure = (name: string, options: HarnessOptions): Effect.Effect<ReadonlyArray<Row>, BenchFailed> =>
  Effect.scoped(Effect.gen(function*() {
    const dir = yield* tempDir
    const gateway = yield* serverProcess("gateway", [gatewayBin, "serve", "--data", join(dir, "data"), "--port", "0", "--no-clock"], {
      cpu: serverCpu,
      timeoutMs: 60_000
    })
    const token = yield* adminToken(gateway)
    const bare = yield* bareStaticServer
    const b = yield* browser
    const contenders = [
      { run: () => render(b, bare.url, undefined, "home"), times: [] as number[] },
      // The thermostat's setpoint: a value of the last service listed, shown once the watch delivered it.
      { run: () => render(b, `${gateway.url}/`, token, "20 °C"), times: [] as number[] }
    ]
    // Once each, unmeasured: Chromium's own first tab, and the gateway's first answers.
    for (const contender of contenders) yield* contender.run()
    const runs = options.rounds ?? 5
    for (let run = 0; run < runs; run++) {
      for (const contender of inTurn(contenders, run)) contender.times.push(yield* contender.run())
    }
    const [baseline = 0, subject = 0] = contenders.map((c) => median(c.times))
    return [{
      name,
      baseline: "a one-line page from node:http",
      subject: "the dashboard, signed in, every value shown",
      baselineFigures: formatDuration(baseline),
      subjectFigures: formatDuration(subject),
      ratio: baseline / subject
    }]
  })).pipe(Effect.mapError((cause) => new BenchFailed({ benchCase: name, contender: "dashboard", cause })))

export const cases: ReadonlyArray<SelfMeasuredCase> = [
  { name: "dashboard first render: demo home", measure: (options) => measure("dashboard first render: demo home", options) }
]
