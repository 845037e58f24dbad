import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { startGateway } from "../support/gatewayOverHttp.ts"
import { openWatch } from "../support/openWatch.ts"
import { runShellExample } from "./shellExamples.ts"

/**
 * The worked sessions of docs/watching.md, run against a gateway on the example home. A session is a
 * fenced block ```ws: `GET /api/v1/channels/watch[?query]`, then lines `> frame` (sent), `< frame`
 * (the next frame expected, exactly) and `= METHOD /path body` (a REST request, expected to answer 200).
 */
const docsDir = join(import.meta.dirname, "..", "..", "docs")
const home: unknown = JSON.parse(readFileSync(join(docsDir, "examples", "home.json"), "utf8"))
const markdown = readFileSync(join(docsDir, "watching.md"), "utf8")

const sessions = [...markdown.matchAll(/^```ws\n([\s\S]*?)^```$/gm)].map((match) => ({
  line: markdown.slice(0, match.index).split("\n").length,
  lines: (match[1] ?? "").split("\n").filter((l) => l.trim() !== "")
}))

describe("docs/watching.md", () => {
  it("has a session in each vocabulary, and one of current values on registration in each", () => {
    expect(sessions.length).toBe(4)
  })

  it.each(sessions)("the session at line $line runs as written", async ({ lines }) => {
    const gateway = await startGateway(home)
    const [open = "", ...steps] = lines
    const query = open.split("?")[1] ?? ""
    const client = await openWatch(gateway, query)
    try {
      for (const step of steps) {
        const [marker, ...rest] = step.split(" ")
        const text = rest.join(" ")
        if (marker === ">") client.send(text)
        else if (marker === "<") expect(await client.next(), step).toEqual(JSON.parse(text))
        else {
          const [method = "", path = "", ...body] = rest
          expect((await gateway.call(method, path, body.join(" "))).status, step).toBe(200)
        }
      }
    } finally {
      await client.close()
      await gateway.close()
    }
  })

  /** The client of "Connecting": the first ```sh block after that heading, run from the project's folder. */
  const connecting = markdown.slice(markdown.indexOf("## Connecting"))
  const client = /^```sh\n([\s\S]*?)^```$/m.exec(connecting)?.[1] ?? ""

  it("the client of Connecting runs as pasted, with what the project installs, and prints the server's events", async () => {
    const gateway = await startGateway(home)
    try {
      const firstEvent = /^\{.*\}$/m
      const run = await runShellExample(
        { script: client },
        { baseUrl: gateway.baseUrl, token: gateway.token, cwd: join(docsDir, "..") },
        15_000,
        (stdout) => firstEvent.test(stdout)
      )
      expect({ stderr: run.stderr, first: JSON.parse(firstEvent.exec(run.stdout)?.[0] ?? "null") }).toEqual({
        stderr: "",
        first: { GetterAdded: "getter:hall-light-on@sim" }
      })
    } finally {
      await gateway.close()
    }
  })
})
