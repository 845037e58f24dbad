import * as Data from "effect/Data"
import * as Result from "effect/Result"
import { maxPasswordLength } from "./Password.ts"

/** A username, email or password that cannot be accepted; the message names the field. */
export class InvalidUserInput extends Data.TaggedError("InvalidUserInput")<{ readonly message: string }> {}

/** Usernames: 1 to 64 letters, digits, `.`, `_`, `-`, `@` — they appear in logs and Basic credentials (no `:`). */
const usernamePattern = /^[A-Za-z0-9._@-]{1,64}$/
export const minPasswordLength = 8

export const checkUsername = (username: string): Result.Result<string, InvalidUserInput> =>
  usernamePattern.test(username)
    ? Result.succeed(username)
    : Result.fail(new InvalidUserInput({ message: "username: 1 to 64 letters, digits, '.', '_', '-' or '@'" }))

export const checkEmail = (email: string): Result.Result<string, InvalidUserInput> =>
  email === "" || (email.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(email))
    ? Result.succeed(email)
    : Result.fail(new InvalidUserInput({ message: "email: expected an address such as name@example.org" }))

export const checkPassword = (password: string): Result.Result<string, InvalidUserInput> =>
  password.length >= minPasswordLength && password.length <= maxPasswordLength
    ? Result.succeed(password)
    : Result.fail(
      new InvalidUserInput({ message: `password: ${minPasswordLength} to ${maxPasswordLength} characters` })
    )
