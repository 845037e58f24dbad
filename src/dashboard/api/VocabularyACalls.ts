/**
 * Vocabulary A's calls by token, read from the text `GET /metrics` answers (the Prometheus text format):
 * the samples of `gateway_vocabulary_a_calls_total`, one per token id that called A since the gateway
 * started, for the first 100 such tokens, and `other` for the calls of the later ones together. Only what
 * that family needs is read; every other line is passed over.
 */

export interface VocabularyACalls {
  /** A token's id, or `other`: the tokens past those with a series of their own. */
  readonly token: number | "other"
  readonly calls: number
}

const sample = /^gateway_vocabulary_a_calls_total\{(.*)\}\s+(\S+)/

const label = /([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"/g

/** A label value as written, its escapes (`\\`, `\"`, `\n`) undone. */
const unescaped = (value: string): string => value.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c))

const labelsOf = (text: string): ReadonlyMap<string, string> =>
  new Map([...text.matchAll(label)].map(([, name = "", value = ""]) => [name, unescaped(value)]))

/** Ids in order, the tokens counted together after them. */
const order = (token: number | "other"): number => (token === "other" ? Number.POSITIVE_INFINITY : token)

const tokenOf = (label: string | undefined): number | "other" | undefined =>
  label === "other" ? "other" : label !== undefined && /^\d+$/.test(label) ? Number(label) : undefined

/** The tokens that called vocabulary A, most calls first (then by id, `other` last). */
export const vocabularyACalls = (metrics: string): ReadonlyArray<VocabularyACalls> =>
  metrics
    .split("\n")
    .flatMap((line) => {
      const found = sample.exec(line)
      if (found === null) return []
      const token = tokenOf(labelsOf(found[1] ?? "").get("token"))
      const calls = Number(found[2])
      return token !== undefined && Number.isFinite(calls) ? [{ token, calls }] : []
    })
    .sort((x, y) => y.calls - x.calls || order(x.token) - order(y.token))
