/** About how many characters of JSON text are gathered before they are made bytes: parts stay few and small. */
const partLength = 64 * 1024

const utf8 = new TextEncoder()

/**
 * The JSON text of a list (`[`, the items, `]`) as UTF-8 bytes, each item written and stringified on its
 * own and the text made bytes part by part. A long list (a large home's listing, some 25 MB) is then never
 * held whole, neither as written objects nor as one string: each item's written form dies young, and what
 * is kept and sent is the bytes alone, which the socket takes as they are, not encoded again per answer.
 */
export const jsonListBytes = <T>(items: ReadonlyArray<T>, write: (item: T) => unknown): Uint8Array => {
  const parts: Array<Uint8Array> = []
  let length = 0
  let text = "["
  let first = true
  for (const item of items) {
    text += first ? JSON.stringify(write(item)) : `,${JSON.stringify(write(item))}`
    first = false
    if (text.length >= partLength) {
      const part = utf8.encode(text)
      parts.push(part)
      length += part.length
      text = ""
    }
  }
  const last = utf8.encode(`${text}]`)
  if (parts.length === 0) return last
  parts.push(last)
  length += last.length
  const bytes = new Uint8Array(length)
  let at = 0
  for (const part of parts) {
    bytes.set(part, at)
    at += part.length
  }
  return bytes
}
