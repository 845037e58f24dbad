import { Schema } from "effect"
import parse from "parse-prometheus-text-format"

/**
 * A scrape of `GET /metrics` as a Prometheus text parser from npm reads it (it throws on a line it
 * cannot read), decoded: each family's name, type and samples.
 */
const Scrape = Schema.Array(Schema.Struct({
  name: Schema.String,
  type: Schema.String,
  metrics: Schema.Array(Schema.Struct({
    value: Schema.optional(Schema.String),
    labels: Schema.optional(Schema.Record(Schema.String, Schema.String))
  }))
}))

export type Scrape = typeof Scrape.Type

export const parseScrape = (text: string): Scrape => Schema.decodeUnknownSync(Scrape)(parse(text))

/** The value of `name`'s sample whose labels are exactly `labels`; 0 when there is none (a series not yet counted). */
export const sample = (scrape: Scrape, name: string, labels: Readonly<Record<string, string>>): number => {
  const wanted = JSON.stringify(Object.entries(labels).sort())
  const found = scrape
    .find((family) => family.name === name)
    ?.metrics.find((metric) => JSON.stringify(Object.entries(metric.labels ?? {}).sort()) === wanted)
  return found?.value === undefined ? 0 : Number(found.value)
}

/** The type of the family `name`, as the text declares it. */
export const familyType = (scrape: Scrape, name: string): string | undefined => scrape.find((family) => family.name === name)?.type
