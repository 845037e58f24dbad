import { describe, expect, it } from "vitest"
import { notInstalled, programPath, requireProgram } from "./requiredProgram.ts"

describe("requireProgram", () => {
  it("fails with one line naming a missing program and the apt-get line that installs it", () => {
    const missing = { program: "no-such-program-of-the-gateway", aptPackage: "no-such-package" }
    expect(() => requireProgram(missing)).toThrow(new Error("no-such-program-of-the-gateway is not installed: apt-get install -y no-such-package"))
    // The whole report is that line: no stack of the test that asked.
    const thrown = (() => {
      try {
        requireProgram(missing)
      } catch (error) {
        return error
      }
    })()
    expect(thrown instanceof Error ? thrown.stack : undefined).toBe(notInstalled(missing))
  })

  it("names a missing absolute path as it was asked", () => {
    expect(() => requireProgram({ program: "/nonexistent/bin/chromium", aptPackage: "chromium" }))
      .toThrow(new Error("/nonexistent/bin/chromium is not installed: apt-get install -y chromium"))
  })

  it("answers where an installed program is, on PATH or by its path", () => {
    expect(requireProgram({ program: "sh", aptPackage: "dash" })).toMatch(/\/sh$/)
    expect(programPath({ program: "/bin/sh", aptPackage: "dash" })).toBe("/bin/sh")
  })
})
