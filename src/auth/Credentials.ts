import { Option, Redacted, Schema } from "effect"
import { decodeWith } from "../vocabulary/common/WireIssue.ts"

/** `Authorization: Basic base64(user:password)` (RFC 7617); `None` when absent or malformed. */
export const basicCredentials = (
  header: string | undefined
): Option.Option<{ readonly username: string; readonly password: Redacted.Redacted<string> }> => {
  const match = header === undefined ? null : /^Basic[ \t]+([A-Za-z0-9+/=]+)[ \t]*$/i.exec(header)
  if (match?.[1] === undefined) return Option.none()
  const decoded = Buffer.from(match[1], "base64").toString("utf8")
  const colon = decoded.indexOf(":")
  if (colon <= 0) return Option.none()
  return Option.some({ username: decoded.slice(0, colon), password: Redacted.make(decoded.slice(colon + 1)) })
}

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
