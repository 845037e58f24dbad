import * as Schema from "effect/Schema"

/**
 * The authenticated person a request is made for. Vocabulary B's fetch and send pass it to the
 * adapters; vocabulary A passes none (`Option.none()`).
 */
export const User = Schema.Struct({ name: Schema.String })
export type User = typeof User.Type

/** A user to create (the gateway's first, at setup): the password redacted, so that no log or error can show it. */
export const NewUser = Schema.Struct({
  username: Schema.String,
  email: Schema.String,
  password: Schema.Redacted(Schema.String)
})
export type NewUser = typeof NewUser.Type
