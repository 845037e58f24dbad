/**
 * The fixed error messages of the gateway's source, found where the code writes them: the string or
 * template literal given as a `message:` or `reason:`, to `Result.fail(…)`, as the text of
 * `jsonMessage(status, …)`, as the reason of a WebSocket close, held by a `const …Message` or
 * `const …Reason`, as a check's message after `||`, or returned by an error's `get message()` (every
 * literal of its body, for messages chosen by a condition). A template's `${…}` parts are what
 * varies: a message is a pattern whose fixed parts must appear in that order.
 */

export interface FixedMessage {
  /** The fixed parts, in order, between the varying ones. */
  readonly parts: ReadonlyArray<string>
  readonly file: string
}

interface Literal {
  readonly parts: ReadonlyArray<string>
  readonly end: number
}

const quotes = new Set(["\"", "'", "`"])

/** Index just after the `${…}` expression that starts at `start` (after its `${`). */
const skipExpression = (source: string, start: number): number => {
  let depth = 1
  let i = start
  while (depth > 0 && i < source.length) {
    const c = source[i] ?? ""
    if (quotes.has(c)) {
      i = readLiteral(source, i)?.end ?? i + 1
      continue
    }
    if (c === "{") depth++
    if (c === "}") depth--
    i++
  }
  return i
}

const unescaped: Readonly<Record<string, string>> = { n: "\n", t: "\t" }

/** The literal that starts at `start`, if a quote starts there. */
const readLiteral = (source: string, start: number): Literal | undefined => {
  const quote = source[start] ?? ""
  if (!quotes.has(quote)) return undefined
  const parts = [""]
  let i = start + 1
  while (i < source.length && source[i] !== quote) {
    const c = source[i] ?? ""
    if (c === "\\") {
      const next = source[i + 1] ?? ""
      parts[parts.length - 1] += unescaped[next] ?? next
      i += 2
    } else if (quote === "`" && c === "$" && source[i + 1] === "{") {
      i = skipExpression(source, i + 2)
      parts.push("")
    } else {
      parts[parts.length - 1] += c
      i++
    }
  }
  return { parts, end: i + 1 }
}

/** Where a message literal starts: just after these. */
const messageAnchors: ReadonlyArray<RegExp> = [
  /\bmessage:\s*/g,
  /\breason:\s*/g,
  /\bResult\.fail\(\s*/g,
  /\bjsonMessage\(\s*\d+,\s*/g,
  /\.close\(\s*\w+,\s*/g,
  /\bcloseFor\(\s*\w+,\s*\w+,\s*/g,
  /\bcloseAll\(\s*/g,
  /\bconst \w*(?:Message|Reason)\s*=\s*/g,
  // A check's message: `(x) => holds(x) || "must …"`.
  /\|\|\s*/g
]

/** Bodies whose every literal is a message: error getters, and functions that choose a message. */
const messageBodies: ReadonlyArray<RegExp> = [
  /get message\(\): string \{/g,
  /\bconst \w*Message\s*=\s*\([^)]*\):\s*string\s*=>/g
]

/** Every literal from `start` to the end of the block (a `{` body) or of the statement (an arrow's expression). */
const literalsOfBody = (source: string, start: number): ReadonlyArray<Literal> => {
  const found: Array<Literal> = []
  let depth = 1
  let i = start
  const braced = source[start - 1] === "{"
  while (i < source.length) {
    const c = source[i] ?? ""
    if (quotes.has(c)) {
      const literal = readLiteral(source, i)
      if (literal === undefined) break
      found.push(literal)
      i = literal.end
      continue
    }
    if (braced && c === "{") depth++
    if (braced && c === "}" && --depth === 0) break
    // An arrow's expression ends with the statement: a line that starts at the left margin.
    if (!braced && c === "\n" && /\S/.test(source[i + 1] ?? "") && source[i + 1] !== " ") break
    i++
  }
  return found
}

/** The fixed messages `source` (the text of `file`) writes. Literals with no letter in them are no message. */
export const fixedMessagesOf = (file: string, source: string): ReadonlyArray<FixedMessage> => {
  const literals: Array<Literal> = []
  for (const anchor of messageAnchors) {
    for (const match of source.matchAll(anchor)) {
      const literal = readLiteral(source, match.index + match[0].length)
      if (literal !== undefined) literals.push(literal)
    }
  }
  for (const body of messageBodies) {
    for (const match of source.matchAll(body)) literals.push(...literalsOfBody(source, match.index + match[0].length))
  }
  return literals
    .filter((literal) => literal.parts.some((part) => /\p{L}/u.test(part)))
    .map((literal) => ({ parts: literal.parts, file }))
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** Whether `text` holds an instance of `message`: its fixed parts in order, something in each varying place. */
export const mentions = (text: string, message: FixedMessage): boolean => {
  const pattern = message.parts
    .map((part) => escapeRegExp(part).replace(/\s+/g, "\\s+"))
    .join("[\\s\\S]+?")
  return new RegExp(pattern).test(text)
}

/** `parts` as a reader would write the message, `…` for each varying place. */
export const shown = (message: FixedMessage): string => `${message.parts.join("…")} (${message.file})`
