import { Redacted, Schema } from "effect"
import { decodeWith } from "../vocabulary/common/WireIssue.ts"

/** The body of `POST /users/setup`: `{"username", "email", "password"}`, all strings (Users checks them further). */
export const SetupBodyJson = Schema.Struct({
  username: Schema.String,
  email: Schema.String,
  password: Schema.String
}).annotate({ expected: "a new user", identifier: "NewUser", description: "The first user." })

/** The password is redacted as soon as it is read, so that no log or error can show it. */
export const decodeSetupBody = decodeWith({
  wire: SetupBodyJson,
  read: (json) => ({ username: json.username, email: json.email, password: Redacted.make(json.password) })
})
