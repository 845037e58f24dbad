/**
 * The JSON text of a list (`[`, the items, `]`) in pieces, made as they are read: `[`, each item's JSON,
 * the commas between them and `]`, each item written and stringified only when the piece before it has
 * been taken. A long list (a large home's listing, some 25 MB) is then never one tree of written objects
 * nor one string, nor even all its pieces at once: what answers it may send each piece and let it go
 * before the next is made (src/http/routing/PiecesAnswer.ts).
 */
export function* jsonListText<T>(items: ReadonlyArray<T>, write: (item: T) => unknown): Generator<string, void, undefined> {
  yield "["
  let first = true
  for (const item of items) {
    if (first) first = false
    else yield ","
    yield JSON.stringify(write(item))
  }
  yield "]"
}
