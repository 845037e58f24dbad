import { Schema } from "effect"

/**
 * What the servers written by hand (HandWritten) hold in memory, handed to each as a JSON file: the token
 * they accept, the lists they serve (the gateway's own answers, so that all serve the same bytes), the
 * getters' values and which getter each setter drives (read from the home the gateway runs on).
 */
export const HandWrittenFixture = Schema.Struct({
  token: Schema.String,
  services: Schema.Unknown,
  nodes: Schema.Unknown,
  values: Schema.Record(Schema.String, Schema.Unknown),
  drives: Schema.Record(Schema.String, Schema.String)
})
export type HandWrittenFixture = typeof HandWrittenFixture.Type

export const decodeHandWrittenFixture = Schema.decodeUnknownSync(Schema.fromJsonString(HandWrittenFixture))

/** The part of a simulated home file that the fixture reads. */
export interface HomeChannels {
  readonly services: ReadonlyArray<{
    readonly getters?: ReadonlyArray<{ readonly id: string; readonly value?: unknown }>
    readonly setters?: ReadonlyArray<{ readonly id: string; readonly drives?: string }>
  }>
}

/** The getters' initial values (`null` for none) and the setters' driven getters, of `home`. */
export const channelsOf = (home: HomeChannels): Pick<HandWrittenFixture, "values" | "drives"> => ({
  values: Object.fromEntries(home.services.flatMap((s) => (s.getters ?? []).map((g) => [g.id, g.value ?? null]))),
  drives: Object.fromEntries(
    home.services.flatMap((s) => (s.setters ?? []).flatMap((setter) => (setter.drives === undefined ? [] : [[setter.id, setter.drives]])))
  )
})
