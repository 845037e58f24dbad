import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from "../../vocabulary/common/JsonText.ts"

/**
 * A home file's bytes cut into its parts, so that its services are decoded and parsed one at a time:
 * parsed whole, the file's tree of objects lives while every service is read, and a large home's is
 * copied by the garbage collector several times over before it dies (nor is its 9.5 MB of text made as
 * one string). Only the plain shape `{"services": [{…}, …], "adapter": "…"}` is cut, with whitespace
 * anywhere JSON allows it; any other text (a byte order mark, a backslash anywhere, another or a repeated
 * key, a service that is not an object, text after the end) is not, and is then read whole as before,
 * which explains what is wrong with it. Whether each part
 * is JSON is left to `JSON.parse` of that part: the parts and the text between them make the whole. (A
 * repeated key would leave the part it replaces unparsed, and a file that is not JSON read.)
 */

/** The UTF-8 bytes of a home file's parts: its adapter's string, if given, and each of its services'. */
export interface HomeFileParts {
  readonly adapter: Uint8Array | undefined
  readonly services: ReadonlyArray<Uint8Array>
}

const COLON = 0x3a
const COMMA = 0x2c

const isWhitespace = (code: number | undefined): boolean => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09

/** Where the string starting at `at` (a quote) ends, past its closing quote (the text holds no backslash); none if it never ends. */
const stringEnd = (bytes: Uint8Array, at: number): number | undefined => {
  const close = bytes.indexOf(QUOTE, at + 1)
  return close < 0 ? undefined : close + 1
}

/**
 * Where the object starting at `at` (a brace) ends, past its closing brace, counted by its brackets
 * outside strings; none if it never ends. Brackets that do not pair up make a text that `JSON.parse`
 * refuses.
 */
const objectEnd = (bytes: Uint8Array, at: number): number | undefined => {
  let depth = 0
  for (let i = at; i < bytes.length; i++) {
    const code = bytes[i]
    if (code === QUOTE) {
      const end = stringEnd(bytes, i)
      if (end === undefined) return undefined
      i = end - 1
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) depth++
    else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      if (--depth === 0) return i + 1
    }
  }
  return undefined
}

/** Whether the bytes from `start` to `end` are `name`, quoted (ASCII). */
const isKey = (bytes: Uint8Array, start: number, end: number, name: string): boolean => {
  if (end - start !== name.length + 2) return false
  for (let i = 0; i < name.length; i++) if (bytes[start + 1 + i] !== name.charCodeAt(i)) return false
  return true
}

/**
 * The parts of a home file, from its bytes, or none if its text is not of the plain shape above. The
 * bytes of every character outside ASCII are outside it too, in UTF-8: the structure is found in the
 * bytes, and each part decoded as the whole would be.
 */
export const homeFileParts = (bytes: Uint8Array): HomeFileParts | undefined => {
  // Without a backslash, a string ends at the next quote (and no escaped key meets V8's fault: JsonText.ts).
  if (bytes.includes(BACKSLASH)) return undefined
  let at = 0
  const skipWhitespace = () => {
    while (isWhitespace(bytes[at])) at++
  }
  /** Whether the next token is `code`, taken if it is. */
  const take = (code: number): boolean => {
    skipWhitespace()
    if (bytes[at] !== code) return false
    at++
    return true
  }
  let adapter: Uint8Array | undefined
  let services: Array<Uint8Array> | undefined
  if (!take(OPEN_OBJECT)) return undefined
  // An object without members has no services, which reading it whole refuses.
  do {
    skipWhitespace()
    const key = at
    const keyEnd = bytes[at] === QUOTE ? stringEnd(bytes, at) : undefined
    if (keyEnd === undefined) return undefined
    at = keyEnd
    if (!take(COLON)) return undefined
    skipWhitespace()
    if (isKey(bytes, key, keyEnd, "adapter") && adapter === undefined && bytes[at] === QUOTE) {
      const end = stringEnd(bytes, at)
      if (end === undefined) return undefined
      adapter = bytes.subarray(at, end)
      at = end
    } else if (isKey(bytes, key, keyEnd, "services") && services === undefined && take(OPEN_ARRAY)) {
      const list: Array<Uint8Array> = []
      if (!take(CLOSE_ARRAY)) {
        do {
          skipWhitespace()
          const end = bytes[at] === OPEN_OBJECT ? objectEnd(bytes, at) : undefined
          if (end === undefined) return undefined
          list.push(bytes.subarray(at, end))
          at = end
        } while (take(COMMA))
        if (!take(CLOSE_ARRAY)) return undefined
      }
      services = list
    } else return undefined
  } while (take(COMMA))
  if (!take(CLOSE_OBJECT)) return undefined
  skipWhitespace()
  return at === bytes.length && services !== undefined ? { adapter, services } : undefined
}
