import { CLOSE_ARRAY, CLOSE_OBJECT, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from "../../vocabulary/common/JsonText.ts"

/**
 * A home file's text cut into the texts of its parts, so that its services are parsed one at a time:
 * parsed whole, the file's tree of objects lives while every service is read, and a large home's is
 * copied by the garbage collector several times over before it dies. Only the plain shape
 * `{"services": [{…}, …], "adapter": "…"}` is cut, with whitespace anywhere JSON allows it; any other
 * text (a backslash anywhere, another or a repeated key, a service that is not an object, text after the
 * end) is not, and is then read whole as before, which explains what is wrong with it. Whether each part
 * is JSON is left to `JSON.parse` of that part: the parts and the text between them make the whole. (A
 * repeated key would leave the part it replaces unparsed, and a file that is not JSON read.)
 */

/** The texts of a home file's parts: its adapter's string, if given, and each of its services'. */
export interface HomeFileParts {
  readonly adapter: string | undefined
  readonly services: ReadonlyArray<string>
}

const COLON = 0x3a
const COMMA = 0x2c

const isWhitespace = (code: number): boolean => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09

/** Where the string starting at `at` (a quote) ends, past its closing quote (the text holds no backslash); none if it never ends. */
const stringEnd = (text: string, at: number): number | undefined => {
  const close = text.indexOf("\"", at + 1)
  return close < 0 ? undefined : close + 1
}

/**
 * Where the object starting at `at` (a brace) ends, past its closing brace, counted by its brackets
 * outside strings; none if it never ends. Brackets that do not pair up make a text that `JSON.parse`
 * refuses.
 */
const objectEnd = (text: string, at: number): number | undefined => {
  let depth = 0
  for (let i = at; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === QUOTE) {
      const end = stringEnd(text, i)
      if (end === undefined) return undefined
      i = end - 1
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) depth++
    else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      if (--depth === 0) return i + 1
    }
  }
  return undefined
}

/** The home file's parts, or none if its text is not of the plain shape above. */
export const homeFileParts = (text: string): HomeFileParts | undefined => {
  // Without a backslash, a string ends at the next quote (and no escaped key meets V8's fault: JsonText.ts).
  if (text.includes("\\")) return undefined
  let at = 0
  const skipWhitespace = () => {
    while (at < text.length && isWhitespace(text.charCodeAt(at))) at++
  }
  /** Whether the next token is `code`, taken if it is. */
  const take = (code: number): boolean => {
    skipWhitespace()
    if (text.charCodeAt(at) !== code) return false
    at++
    return true
  }
  let adapter: string | undefined
  let services: Array<string> | undefined
  if (!take(OPEN_OBJECT)) return undefined
  // An object without members has no services, which reading it whole refuses.
  do {
    skipWhitespace()
    const keyEnd = text.charCodeAt(at) === QUOTE ? stringEnd(text, at) : undefined
    if (keyEnd === undefined) return undefined
    const key = text.slice(at, keyEnd)
    at = keyEnd
    if (!take(COLON)) return undefined
    skipWhitespace()
    if (key === "\"adapter\"" && adapter === undefined && text.charCodeAt(at) === QUOTE) {
      const end = stringEnd(text, at)
      if (end === undefined) return undefined
      adapter = text.slice(at, end)
      at = end
    } else if (key === "\"services\"" && services === undefined && take(OPEN_ARRAY)) {
      const list: Array<string> = []
      if (!take(CLOSE_ARRAY)) {
        do {
          skipWhitespace()
          const end = text.charCodeAt(at) === OPEN_OBJECT ? objectEnd(text, at) : undefined
          if (end === undefined) return undefined
          list.push(text.slice(at, end))
          at = end
        } while (take(COMMA))
        if (!take(CLOSE_ARRAY)) return undefined
      }
      services = list
    } else return undefined
  } while (take(COMMA))
  if (!take(CLOSE_OBJECT)) return undefined
  skipWhitespace()
  return at === text.length && services !== undefined ? { adapter, services } : undefined
}
