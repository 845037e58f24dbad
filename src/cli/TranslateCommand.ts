import { text } from "node:stream/consumers"
import { Console, Effect, Option, Result } from "effect"
import { Argument, CliError, Command } from "effect/cli"
import { parseJsonText } from "../vocabulary/common/JsonText.ts"
import { operationNames, translateToB } from "../vocabulary/Translation.ts"

const args = {
  operation: Argument.String("operation").pipe(
    Argument.withDescription(`the vocabulary A operation: ${Object.keys(operationNames).join(", ")}`)
  ),
  body: Argument.String("body").pipe(
    Argument.withDescription("its JSON body (read from standard input when left out; blank: no body)"),
    Argument.optional
  )
}

const userError = (message: string) => new CliError.UserError({ userMessage: message, cause: message })

/** The body from the argument, or else all of standard input. */
const bodyText = (body: Option.Option<string>) =>
  Option.match(body, { onSome: Effect.succeed, onNone: () => Effect.promise(() => text(process.stdin)) })

/**
 * `gateway translate OPERATION [BODY]`: prints the vocabulary B request equivalent to a vocabulary A
 * one, as JSON `{operation, method, path, body}`. Built from the two codecs, so it reads and writes
 * exactly what the gateway does.
 */
export const translateCommand = Command.make("translate", args, ({ operation, body }) =>
  Effect.gen(function*() {
    const source = yield* bodyText(body)
    // A blank body is no body, as over HTTP: a read of everything.
    const json = yield* Effect.fromResult(
      Result.mapError(parseJsonText(source), (reason) => userError(`body: invalid JSON: ${reason}`))
    )
    const translated = translateToB(operation, json)
    if (Result.isFailure(translated)) return yield* userError(translated.failure.message)
    yield* Console.log(JSON.stringify(translated.success, null, 2))
  })).pipe(Command.withDescription("Print the vocabulary B request equivalent to a vocabulary A request"))
