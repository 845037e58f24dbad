import * as Order from "effect/Order"

/**
 * The order of every list the gateway answers (docs/reference.md §5): by id, or by result key, the
 * strings compared with `<` (UTF-16 code units).
 */
export const byId: Order.Order<{ readonly id: string }> = Order.mapInput(Order.String, (item) => item.id)

export const byKey: Order.Order<{ readonly key: string }> = Order.mapInput(Order.String, (item) => item.key)

/**
 * `items` in `order`: the list itself when it already is (answers pass through several layers that each
 * promise the order; only the first pays for a sort), else a sorted copy.
 */
export const inOrder = <A extends object>(items: ReadonlyArray<A>, order: Order.Order<A>): ReadonlyArray<A> => {
  let previous: A | undefined
  for (const item of items) {
    if (previous !== undefined && order(previous, item) > 0) return [...items].sort(order)
    previous = item
  }
  return items
}
