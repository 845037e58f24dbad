import * as Option from "effect/Option"

/**
 * `--deprecate-vocabulary-a[=DATE]`: vocabulary A is deprecated, and with a DATE goes away then. Its HTTP
 * answers say so in headers; a watch socket, whose upgrade cannot usefully carry them, says so in the log.
 */
export interface VocabularyADeprecation {
  /** Since when A is deprecated (ms since the epoch): the start of this gateway, or the sunset if that came first. */
  readonly since: number
  /** When A goes away (ms since the epoch), if the operator said. */
  readonly sunset: Option.Option<number>
}

/** Where the guide to move an app from A to B is: the gateway serves it (docs/migrating-a-to-b.md). */
export const migrationGuidePath = "/docs/migrating-a-to-b.md"

/**
 * The headers of A's answers: `Deprecation` (RFC 9745, a structured-field date, `@` and seconds since
 * the epoch), `Sunset` when a date was given (RFC 8594, an HTTP-date), and a `Link` to the migration guide.
 */
export const deprecationHeaders = ({ since, sunset }: VocabularyADeprecation): Readonly<Record<string, string>> => ({
  deprecation: `@${Math.floor(since / 1000)}`,
  ...Option.match(sunset, { onNone: () => ({}), onSome: (at) => ({ sunset: new Date(at).toUTCString() }) }),
  link: `<${migrationGuidePath}>; rel="deprecation"; type="text/markdown"`
})

/** Said of A in the log: deprecated, and until when. */
export const deprecationNotice = ({ sunset }: VocabularyADeprecation): string =>
  Option.match(sunset, {
    onNone: () => "vocabulary A is deprecated",
    onSome: (at) => `vocabulary A is deprecated and goes away on ${new Date(at).toISOString()}`
  }) + ` (${migrationGuidePath.slice(1)})`
