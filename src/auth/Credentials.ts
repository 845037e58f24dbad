import { Option, Redacted, Result } from "effect"
import type { Decoded } from "../vocabulary/common/JsonInput.ts"
import { readObjectWithKeys, readRequired, readString } from "../vocabulary/common/JsonInput.ts"
import type { NewUser } from "./Users.ts"

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

/** The body of `POST /users/setup`: `{"username", "email", "password"}`, all strings. */
export const decodeSetupBody = (json: unknown): Decoded<NewUser> =>
  Result.gen(function*() {
    const object = yield* readObjectWithKeys(json, [], "a new user", ["username", "email", "password"])
    return {
      username: yield* readRequired(object, "username", [], readString),
      email: yield* readRequired(object, "email", [], readString),
      password: Redacted.make(yield* readRequired(object, "password", [], readString))
    }
  })
