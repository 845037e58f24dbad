import { text } from "node:stream/consumers"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { Argument, Command, Flag } from "effect/cli"
import { randomPassword } from "../auth/Password.ts"
import { Tokens } from "../auth/Tokens.ts"
import { Users } from "../auth/Users.ts"
import { asUserError, storeFlags, withStore } from "./StoreAccess.ts"

const username = Argument.String("username").pipe(Argument.withDescription("the user's name"))
const passwordStdin = Flag.Boolean("password-stdin").pipe(
  Flag.withDefault(false),
  Flag.withDescription("read the password from the first line of standard input (default: a random one, printed once)")
)

/** The password from stdin, or a random one to print: never from an argument, which `ps` would show. */
const newPassword = (fromStdin: boolean) =>
  fromStdin
    ? Effect.map(Effect.promise(() => text(process.stdin)), (input) => ({
      password: Redacted.make(input.split(/\r?\n/)[0] ?? ""),
      generated: false
    }))
    : Effect.succeed({ password: randomPassword(), generated: true })

const printPassword = (chosen: { readonly password: Redacted.Redacted<string>; readonly generated: boolean }) =>
  chosen.generated ? Console.log(`password: ${Redacted.value(chosen.password)}`) : Effect.void

const add = Command.make(
  "add",
  {
    username,
    email: Flag.String("email").pipe(Flag.withMetavar("ADDRESS"), Flag.withDefault(""), Flag.withDescription("the user's email")),
    passwordStdin,
    ...storeFlags
  },
  (input) =>
    Effect.gen(function*() {
      const chosen = yield* newPassword(input.passwordStdin)
      yield* asUserError(Users.use((u) => u.add({ username: input.username, email: input.email, password: chosen.password })))
      yield* Console.log(`user ${input.username} added`)
      yield* printPassword(chosen)
    }).pipe(withStore(input))
).pipe(Command.withDescription("Add a user"))

const list = Command.make("list", { ...storeFlags }, (input) =>
  Effect.gen(function*() {
    const users = yield* asUserError(Users.use((u) => u.list))
    for (const user of users) {
      yield* Console.log([user.username, user.email === "" ? "-" : user.email, new Date(user.createdAt).toISOString()].join("\t"))
    }
  }).pipe(withStore(input))).pipe(Command.withDescription("List users: name, email, created"))

const remove = Command.make("remove", { username, ...storeFlags }, (input) =>
  Effect.gen(function*() {
    yield* asUserError(Users.use((u) => u.remove(input.username)))
    yield* Console.log(`user ${input.username} removed, with its tokens`)
  }).pipe(withStore(input))).pipe(Command.withDescription("Remove a user and every token of it"))

const passwd = Command.make("passwd", { username, passwordStdin, ...storeFlags }, (input) =>
  Effect.gen(function*() {
    const chosen = yield* newPassword(input.passwordStdin)
    const user = yield* asUserError(Users.use((u) => u.setPassword(input.username, chosen.password)))
    // A changed password ends the sessions opened with the old one; API tokens stay (revoke them one by one).
    yield* asUserError(Tokens.use((t) => t.revokeSessionsOf(user)))
    yield* Console.log(`password of ${input.username} changed; its sessions are ended`)
    yield* printPassword(chosen)
  }).pipe(withStore(input))).pipe(
    Command.withDescription("Change a user's password (ends the user's sessions)")
  )

/** `gateway users add|list|remove|passwd`. */
export const usersCommand = Command.make("users").pipe(
  Command.withDescription("Manage users (works beside a running server)"),
  Command.withSubcommands([add, list, remove, passwd])
)

