import { loneBinaryValue } from "../domain/Outcome.ts"
import { DOCS } from "../vocabulary/common/Docs.ts"
import { TagCountJson } from "../vocabulary/common/TagCountJson.ts"
import { plain } from "../vocabulary/common/WireShape.ts"
import { tokenWith } from "./Access.ts"
import { type Readable, readBody, writeBody } from "./Bodies.ts"
import { type Alias, type AnswerShape, endpoint, type Method, type Path } from "./Endpoint.ts"

/**
 * The operations both vocabularies have (lists, tags, reads and writes of values), each said in the
 * vocabulary's words: `thing` is what it calls what the operation touches ("service", "node", "getter"…).
 */

/** Where an operation is answered, and in which vocabulary. */
export interface Place<Id extends string> {
  readonly operationId: Id
  readonly method: Method
  readonly path: Path
  readonly aliases?: ReadonlyArray<Alias>
  readonly tag: "vocabulary A" | "vocabulary B"
}

/** What a tag operation answers. */
export const tagCount = { status: 200, shape: plain(TagCountJson), description: DOCS ? "How many things matched any selector." : "" } as const

/** Said of both vocabularies' reads of values (the server's content negotiation). */
const loneBinary = DOCS ? " When the read answers exactly one channel with a Binary value and `Accept` prefers that value's " +
  "mimetype to JSON (`image/jpeg`, `image/*`), the answer is the bytes themselves with that `Content-Type`." : ""

/** `Add tags to` (POST) or `Remove tags from` (DELETE). */
export const tagVerb = (method: Method): string => (method === "DELETE" ? "Remove tags from" : "Add tags to")

/** What a read takes and answers: selectors of `thing`s (no body: every one), and the shape of its answer. */
export interface Reading<T, W, A> {
  readonly thing: string
  readonly selectors: Readable<T, W>
  readonly everything: T
  readonly answer: AnswerShape<A>
}

/** The things matching any selector. */
export const listing = <const Id extends string, T, W, A>(place: Place<Id>, { thing, selectors, everything, answer }: Reading<T, W, A>) =>
  endpoint({
    ...place,
    access: tokenWith("read"),
    summary: DOCS ? `List ${thing}s` : "",
    description: DOCS ? `The ${thing}s matching any selector.` : "",
    body: readBody(selectors, everything, `every ${thing}`),
    answer: { status: 200, shape: answer, description: DOCS ? `The ${thing}s, sorted by id.` : "" }
  })

/** Tags added to or removed from the things that match now, kept with their ids. */
export const tagging = <const Id extends string, T, W>(place: Place<Id>, thing: string, body: Readable<T, W>) =>
  endpoint({
    ...place,
    access: tokenWith("tag"),
    summary: DOCS ? `${tagVerb(place.method)} ${thing}s` : "",
    description: DOCS ? `Touches the ${thing}s that match now; tags are persisted with the ${thing} id.` : "",
    body: writeBody(body, DOCS ? `The ${thing}s and the tags.` : ""),
    answer: tagCount
  })

/**
 * The current values of the channels matching any selector, asked of their devices. `A` is what the
 * vocabulary reads of results (A's errors say less than the domain's); the domain's results are written as they are.
 */
export const valueReading = <const Id extends string, T, W, A>(
  place: Place<Id>,
  { thing, selectors, everything, answer }: Reading<T, W, A>
) =>
  endpoint({
    ...place,
    access: tokenWith("read"),
    summary: DOCS ? `Read the values of ${thing}s` : "",
    description: DOCS ? `Asks the devices for the current value of every ${thing} matching any selector.` + loneBinary : "",
    body: readBody(selectors, everything, `every ${thing}`),
    answer: { status: 200, shape: answer, description: DOCS ? `The value or error of each ${thing}.` : "", rawBinary: loneBinaryValue }
  })

/** Values written to channels, and the outcome for each. */
export const valueWriting = <const Id extends string, T, W, A>(
  place: Place<Id>,
  thing: string,
  summary: string,
  body: { readonly shape: Readable<T, W>; readonly description: string },
  answer: AnswerShape<A>
) =>
  endpoint({
    ...place,
    access: tokenWith("write"),
    summary,
    description: DOCS ? `Writes, batched per adapter. A value of the wrong type is that ${thing}'s TypeError; the others are written.` : "",
    body: writeBody(body.shape, body.description),
    answer: { status: 200, shape: answer, description: DOCS ? `The outcome for each ${thing}.` : "" }
  })
