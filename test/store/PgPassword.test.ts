import { describe, expect, it } from "vitest"
import { Option } from "effect"
import { pgpassPassword } from "../../src/store/PgPassword.ts"

const target = { host: "db.example.org", port: "5432", database: "gateway", user: "gw" }

describe("a .pgpass file, read as libpq reads it", () => {
  it("answers the password of the first line that matches host, port, database and user", () => {
    const text = ["# the gateway", "db.example.org:5432:other:gw:not-this-one", "db.example.org:5432:gateway:gw:first", "*:*:*:*:second"].join("\n")
    expect(pgpassPassword(text, target)).toEqual(Option.some("first"))
  })

  it("lets * stand for any value of a field", () => {
    expect(pgpassPassword("*:5432:*:gw:any-database", target)).toEqual(Option.some("any-database"))
    expect(pgpassPassword("*:5433:*:gw:other-port", target)).toEqual(Option.none())
  })

  it("reads \\: and \\\\ as a colon and a backslash, in any field, and keeps colons of the password", () => {
    const text = "db.example.org:5432:gateway:gw:pa\\:ss\\\\word:tail"
    expect(pgpassPassword(text, target)).toEqual(Option.some("pa:ss\\word:tail"))
    expect(pgpassPassword("db.example.org:5432:gate\\:way:gw:secret", { ...target, database: "gate:way" })).toEqual(Option.some("secret"))
  })

  it("skips comments and lines of fewer than five fields", () => {
    expect(pgpassPassword("#db.example.org:5432:gateway:gw:commented\ndb.example.org:5432:gateway\n", target)).toEqual(Option.none())
  })
})
