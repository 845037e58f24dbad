import { channelTags } from "./ChannelTags.ts"
import { documentation, migrationGuide } from "./Documentation.ts"
import type { Endpoint, Group } from "./Endpoint.ts"
import { health } from "./Health.ts"
import { tokens } from "./Tokens.ts"
import { metrics } from "./Metrics.ts"
import { users } from "./Users.ts"
import { vocabularyA } from "./VocabularyA.ts"
import { vocabularyB } from "./VocabularyB.ts"
import { watching } from "./Watching.ts"

/** The whole API, group by group: every route the gateway answers is an endpoint of one of them. */
export const api = { vocabularyB, vocabularyA, channelTags, watching, health, users, tokens, documentation, migrationGuide, metrics } as const

/** Every endpoint of `groups`. */
export const endpointsOf = (groups: { readonly [name: string]: Group }): ReadonlyArray<Endpoint> =>
  Object.values(groups).flatMap((g) => Object.values(g))
