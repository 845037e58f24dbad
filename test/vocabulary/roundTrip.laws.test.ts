import { schemaLaw } from "../laws/law.ts"
import { roundTrips } from "./roundTripLaws.ts"

/** The round trip of every wire shape (test/vocabulary/roundTripLaws.ts), each a law of docs/laws.md. */
for (const { name, check } of roundTrips) {
  schemaLaw(`round trip: ${name}`, { of: "values the vocabulary can say", floor: 0.05 }, 150, check)
}
