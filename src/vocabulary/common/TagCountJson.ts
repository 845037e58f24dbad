import * as Schema from "effect/Schema"
import { DOCS } from "./Docs.ts"

/** What a tag operation answers in both vocabularies (docs/reference.md §6.5): how many distinct things matched. */
export const TagCountJson = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).annotate({
  identifier: "TagCount",
  description: DOCS ? "How many distinct things matched any selector, whether their tags changed or not." : ""
})
