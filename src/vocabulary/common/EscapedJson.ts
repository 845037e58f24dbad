/**
 * Reads JSON text that `JSON.parse` has already accepted, for text with escapes in it.
 *
 * Why: V8's `JSON.parse` (seen in Node 24.21 and 26.10) can misread an object key written with an
 * escape. When an earlier parse in the process made the hidden-class transition for a key of the same
 * decoded length (`{"a":0,"\\":0}`), following that transition compares the new key's raw source
 * characters with the expected key instead of its decoded ones: `{"a":0,"\n":0}` then reads with the key
 * `"\\"`. A text without a backslash is always read right. Here a string is decoded by `JSON.parse` of
 * its own token (a lone string makes no object, so no transition), and objects are built key by key.
 *
 * Iterative, with an explicit stack of the arrays and objects still open: a body can nest deep.
 *
 * The way out: a canary (test/vocabulary/common/v8EscapedKeyFault.test.ts) plants the fault in a fresh
 * worker with the pinned Node and fails, saying "V8 fixed it: make parseJson plain JSON.parse again", once
 * the fault is gone; then parseJson is `JSON.parse` alone and this file goes.
 */
export const readEscapedJson = (text: string): unknown => {
  const open: Array<Open> = []
  let root: unknown
  const place = (value: unknown): void => {
    const top = open.at(-1)
    if (top === undefined) root = value
    else if (top.kind === "array") top.items.push(value)
    else if (top.key !== undefined) { // valid JSON: an object's value always follows its key
      setOwn(top.fields, top.key, value)
      top.key = undefined
    }
  }
  let at = 0
  while (at < text.length) {
    switch (text.charAt(at)) {
      case "\"": {
        const end = closingQuote(text, at)
        const token = text.slice(at, end + 1)
        const string: string = token.includes("\\") ? JSON.parse(token) : token.slice(1, -1)
        const top = open.at(-1)
        if (top?.kind === "object" && top.key === undefined) top.key = string
        else place(string)
        at = end + 1
        break
      }
      case "{": {
        const fields = {}
        place(fields)
        open.push({ kind: "object", fields, key: undefined })
        at++
        break
      }
      case "[": {
        const items: Array<unknown> = []
        place(items)
        open.push({ kind: "array", items })
        at++
        break
      }
      case "}":
      case "]":
        open.pop()
        at++
        break
      case "t":
        place(true)
        at += 4
        break
      case "f":
        place(false)
        at += 5
        break
      case "n":
        place(null)
        at += 4
        break
      case "-":
      case "0":
      case "1":
      case "2":
      case "3":
      case "4":
      case "5":
      case "6":
      case "7":
      case "8":
      case "9": {
        let end = at + 1
        while (end < text.length && NUMBER_PART.includes(text.charAt(end))) end++
        place(Number(text.slice(at, end)))
        at = end
        break
      }
      default:
        at++ // whitespace, `,` and `:`: the text is valid, its structure is in its brackets and quotes
    }
  }
  return root
}

type Open =
  | { readonly kind: "array"; readonly items: Array<unknown> }
  | { readonly kind: "object"; readonly fields: Record<string, unknown>; key: string | undefined }

const NUMBER_PART = "0123456789+-.eE"

/**
 * A field as `JSON.parse` makes it: an own data property even for `__proto__` (an assignment would set the
 * prototype), the last value of a repeated key at the place of its first.
 */
const setOwn = (fields: Record<string, unknown>, key: string, value: unknown): void => {
  if (key === "__proto__") Object.defineProperty(fields, key, { value, writable: true, enumerable: true, configurable: true })
  else fields[key] = value
}

/** Where the string opened at `at` closes: the next quote not escaped. */
const closingQuote = (text: string, at: number): number => {
  let end = at + 1
  while (end < text.length && text.charAt(end) !== "\"") end += text.charAt(end) === "\\" ? 2 : 1
  return end
}
