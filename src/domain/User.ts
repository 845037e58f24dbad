import * as Schema from "effect/Schema"

/**
 * The authenticated person a request is made for. Vocabulary B's fetch and send pass it to the
 * adapters; vocabulary A passes none (`Option.none()`).
 */
export const User = Schema.Struct({ name: Schema.String })
export type User = typeof User.Type
