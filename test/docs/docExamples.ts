/**
 * The runnable examples of a document in docs/: a fenced block ```http holding `METHOD /path`, then
 * optional header lines (`Authorization: Bearer $TOKEN`) and, after a blank line or on the next lines,
 * an optional JSON body; then a fenced block ```json with the response body, or ```json 400 (any status)
 * for a response that is not a 200. In headers and paths the runner puts the admin token for `$TOKEN`
 * and `admin:<password>` in base64 for `$ADMIN_BASIC`; an example with no `Authorization` line is sent
 * with the admin token (the vocabulary documents say so once, at the top).
 */
export interface DocExample {
  readonly line: number
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | undefined
  readonly status: number
  readonly response: unknown
}

const fence = /^```(\S*)(?:[ \t]+(\d{3}))?[ \t]*$/

interface Block {
  readonly line: number
  readonly info: string
  readonly status: string | undefined
  readonly text: string
}

const blocks = (markdown: string): ReadonlyArray<Block> => {
  const lines = markdown.split("\n")
  const found: Array<Block> = []
  for (let i = 0; i < lines.length; i++) {
    const open = fence.exec(lines[i] ?? "")
    if (open === null) continue
    const start = i
    const body: Array<string> = []
    for (i++; i < lines.length && (lines[i] ?? "").trim() !== "```"; i++) body.push(lines[i] ?? "")
    found.push({ line: start + 1, info: open[1] ?? "", status: open[2], text: body.join("\n") })
  }
  return found
}

export const docExamples = (markdown: string): ReadonlyArray<DocExample> => {
  const all = blocks(markdown)
  const examples: Array<DocExample> = []
  all.forEach((block, i) => {
    if (block.info !== "http") return
    const answer = all[i + 1]
    if (answer === undefined || answer.info !== "json") {
      throw new Error(`line ${block.line}: an http example must be followed by a json block with the response`)
    }
    const [requestLine = "", ...rest] = block.text.split("\n")
    const [method = "", path = ""] = requestLine.trim().split(/\s+/)
    const headers: Record<string, string> = {}
    while (rest.length > 0 && headerLine.test(rest[0] ?? "")) {
      const [, name = "", value = ""] = headerLine.exec(rest.shift() ?? "") ?? []
      headers[name.toLowerCase()] = value
    }
    const body = rest.join("\n").trim()
    examples.push({
      line: block.line,
      method,
      path,
      headers,
      body: body === "" ? undefined : body,
      status: answer.status === undefined ? 200 : Number(answer.status),
      response: JSON.parse(answer.text)
    })
  })
  return examples
}

const headerLine = /^([A-Za-z][A-Za-z0-9-]*):[ \t]*(.*)$/

/** A whole TypeScript program (a ```ts block followed by a ```text block of what it prints), as docs/client.md shows them. */
export interface ProgramExample {
  readonly line: number
  readonly program: string
  readonly prints: string
}

/** The ```ts blocks followed by a ```text block; other ```ts blocks are snippets, not programs. */
export const programExamples = (markdown: string): ReadonlyArray<ProgramExample> => {
  const all = blocks(markdown)
  return all.flatMap((block, i) => {
    const printed = all[i + 1]
    return block.info === "ts" && printed?.info === "text" ? [{ line: block.line, program: block.text, prints: printed.text }] : []
  })
}

/** The gateway a document's examples assume: the flags of its first `npm start -- …` line. */
export interface ServeCommand {
  readonly line: number
  /** `--home FILE`, relative to the project's folder. */
  readonly home: string | undefined
  readonly clock: boolean
}

/**
 * The first `npm start [-- …]` line of a ```sh block: the command the document says its examples run
 * against (`npm start`, not `npx gateway serve`: npx does not pass a SIGTERM on to the gateway). Only
 * `--home` and `--no-clock` change what the examples answer, and `--data` where the database is; any
 * other flag is refused here, so that the command a reader copies is exactly the one the examples ran on.
 */
export const serveCommand = (markdown: string): ServeCommand | undefined => {
  for (const block of blocks(markdown)) {
    if (block.info !== "sh") continue
    const lines = block.text.split("\n")
    const index = lines.findIndex((l) => /^(\$ )?npm start(\s|$)/.test(l.trim()))
    const found = lines[index]
    if (found === undefined) continue
    // `npm start -- FLAGS` hands FLAGS to `gateway serve`.
    const words = found.trim().replace(/^\$ /, "").replace(/\s+#.*$/, "").split(/\s+/).slice(3)
    let home: string | undefined
    let clock = true
    for (let i = 0; i < words.length; i++) {
      const word = words[i]
      if (word === "--home") home = words[++i]
      else if (word === "--no-clock") clock = false
      else if (word === "--data") i++
      else throw new Error(`line ${block.line + 1 + index}: the examples runner does not know the flag ${word}`)
    }
    return { line: block.line + 1 + index, home, clock }
  }
  return undefined
}

/**
 * A `gateway translate` example: a ```sh block `$ npx gateway translate OP ['BODY'] [--answer 'ANSWER']`,
 * then a ```json block with what it prints.
 */
export interface TranslateExample {
  readonly line: number
  readonly operation: string
  readonly body: string | undefined
  readonly answer: string | undefined
  readonly printed: unknown
}

const translateLine = /^\$ npx gateway translate (\S+)(?: '([^']*)')?(?: --answer '([^']*)')?$/

export const translateExamples = (markdown: string): ReadonlyArray<TranslateExample> => {
  const all = blocks(markdown)
  return all.flatMap((block, i) => {
    const match = block.info === "sh" ? translateLine.exec(block.text.trim()) : null
    if (match === null) return []
    const answer = all[i + 1]
    if (answer === undefined || answer.info !== "json") {
      throw new Error(`line ${block.line}: a translate example must be followed by a json block with what it prints`)
    }
    return [{ line: block.line, operation: match[1] ?? "", body: match[2], answer: match[3], printed: JSON.parse(answer.text) }]
  })
}

const isoTimestamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/

const token = /^gw_[A-Za-z0-9_-]{43}$/

/** Times and minted tokens differ from run to run: every timestamp compares equal to every other, and every token. */
export const withoutTimes = (json: unknown): unknown => {
  if (typeof json === "string") return isoTimestamp.test(json) ? "<time>" : token.test(json) ? "<token>" : json
  if (Array.isArray(json)) return json.map(withoutTimes)
  if (json !== null && typeof json === "object") {
    return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, withoutTimes(v)]))
  }
  return json
}
