import { Option, Redacted } from "effect"

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
