/**
 * The JSON text of a list (`[`, the items, `]`) in pieces: `[`, each item's JSON, the commas between them
 * and `]`, each item written and stringified on its own. A long list (a large home's listing, some 25 MB)
 * is then never one tree of written objects nor one string: each item's written form dies young, and
 * what answers the list makes the pieces bytes (src/http/routing/Utf8Pieces.ts) without joining them into
 * a string first, which would copy the text once more.
 */
export const jsonListText = <T>(items: ReadonlyArray<T>, write: (item: T) => unknown): ReadonlyArray<string> => {
  const pieces: Array<string> = ["["]
  for (const item of items) {
    if (pieces.length > 1) pieces.push(",")
    pieces.push(JSON.stringify(write(item)))
  }
  pieces.push("]")
  return pieces
}
