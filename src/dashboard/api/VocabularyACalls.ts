/**
 * Vocabulary A's calls by token, read from the text `GET /metrics` answers (the Prometheus text format):
 * the samples of `gateway_vocabulary_a_calls_total`, one per token id that called A since the gateway
 * started. Only what that family needs is read; every other line is passed over.
 */

export interface VocabularyACalls {
  readonly token: number
  readonly calls: number
}

const sample = /^gateway_vocabulary_a_calls_total\{(.*)\}\s+(\S+)/

const label = /([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"/g

/** A label value as written, its escapes (`\\`, `\"`, `\n`) undone. */
const unescaped = (value: string): string => value.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c))

const labelsOf = (text: string): ReadonlyMap<string, string> =>
  new Map([...text.matchAll(label)].map(([, name = "", value = ""]) => [name, unescaped(value)]))

/** The tokens that called vocabulary A, most calls first (then by id). */
export const vocabularyACalls = (metrics: string): ReadonlyArray<VocabularyACalls> =>
  metrics
    .split("\n")
    .flatMap((line) => {
      const found = sample.exec(line)
      if (found === null) return []
      const token = labelsOf(found[1] ?? "").get("token")
      const calls = Number(found[2])
      return token !== undefined && /^\d+$/.test(token) && Number.isFinite(calls) ? [{ token: Number(token), calls }] : []
    })
    .sort((x, y) => y.calls - x.calls || x.token - y.token)
