import { text } from "node:stream/consumers"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { Argument, CliError, Command, Flag } from "effect/cli"
import { methodAliasesOf } from "../api/VocabularyB.ts"
import type { InvalidInput } from "../vocabulary/common/InvalidInput.ts"
import { parseJson, parseJsonText } from "../vocabulary/common/JsonText.ts"
import type { Unexpressible } from "../vocabulary/common/Unexpressible.ts"
import { operationNames, problemInWords, type RequestB, translateAnswerToB, translateToB } from "../api/Translation.ts"

const args = {
  operation: Argument.String("operation").pipe(
    Argument.withDescription(`the vocabulary A operation: ${Object.keys(operationNames).join(", ")}`)
  ),
  body: Argument.String("body").pipe(
    Argument.withDescription(
      "its JSON body (read from standard input when left out, unless --answer is given; blank: no body)"
    ),
    Argument.optional
  ),
  answer: Flag.String("answer").pipe(
    Flag.withMetavar("JSON"),
    Flag.withDescription("the answer the A request got, to print in B's words too ('-': read it from standard input)"),
    Flag.optional
  )
}

const userError = (message: string) => new CliError.UserError({ userMessage: message, cause: message })

const standardInput = Effect.promise(() => text(process.stdin))

/** Where the problem is: in the body sent, or in the answer got. */
const refused = (error: InvalidInput | Unexpressible, root: "body" | "answer") => userError(problemInWords(error, root))

/** The B request, with the methods a browser may send a read's body with. */
const requestOf = (operation: string, source: string) =>
  Effect.gen(function*() {
    // A blank body is no body, as over HTTP: a read of everything.
    const json = yield* Effect.fromResult(
      Result.mapError(parseJsonText(source), (reason) => userError(`body: invalid JSON: ${reason}`))
    )
    const request: RequestB = yield* Effect.fromResult(Result.mapError(translateToB(operation, json), (e) => refused(e, "body")))
    const aliases = methodAliasesOf(request.operation)
    const { body, ...where } = request
    return { ...where, ...(aliases.length === 0 ? {} : { aliases }), ...(body === undefined ? {} : { body }) }
  })

/** The B answer of the A answer `source`. */
const answerOf = (operation: string, source: string) =>
  Effect.gen(function*() {
    const json = yield* Effect.fromResult(Result.mapError(parseJson(source), (reason) => userError(`answer: invalid JSON: ${reason}`)))
    return yield* Effect.fromResult(Result.mapError(translateAnswerToB(operation, json), (e) => refused(e, "answer")))
  })

/**
 * `gateway translate OPERATION [BODY] [--answer JSON]`: prints the vocabulary B request equivalent to a
 * vocabulary A one, as JSON `{operation, method, path, aliases, body}`; with `--answer`, the B answer
 * equivalent to the A answer too (`answer`, and `untold`: what B would say there that A did not), alone
 * when no body is given. Built from the two codecs, so it reads and writes exactly what the gateway does.
 */
export const translateCommand = Command.make("translate", args, ({ answer, body, operation }) =>
  Effect.gen(function*() {
    const printed = yield* Option.match(answer, {
      onNone: () => Effect.flatMap(Option.match(body, { onSome: Effect.succeed, onNone: () => standardInput }), (source) => requestOf(operation, source)),
      onSome: (answerText) =>
        Effect.gen(function*() {
          const answered = yield* answerOf(operation, answerText === "-" ? yield* standardInput : answerText)
          if (Option.isNone(body)) return answered
          const { operation: _, ...rest } = answered
          return { ...(yield* requestOf(operation, body.value)), ...rest }
        })
    })
    yield* Console.log(JSON.stringify(printed, null, 2))
  })).pipe(Command.withDescription("Print the vocabulary B request (and answer) equivalent to a vocabulary A request (and answer)"))
