import { Order } from "effect"

/**
 * The order of every list the gateway answers (wire.md §5, §6, §9): by id, or by result key, the
 * strings compared with `<` (UTF-16 code units).
 */
export const byId: Order.Order<{ readonly id: string }> = Order.mapInput(Order.String, (item) => item.id)

export const byKey: Order.Order<{ readonly key: string }> = Order.mapInput(Order.String, (item) => item.key)
