import type { ChannelId } from "../domain/Identifier.ts"
import type { WatchEvent, WatchRegistration } from "../domain/Watch.ts"
import type { HomeView } from "./HomeIndex.ts"
import type { Interest } from "./WatchInterest.ts"

/**
 * What a registration makes of the home for a watcher that watches nothing yet: the interest in each
 * channel, its own events in order (additions, refusals, current values), and the channels whose current
 * value is among them, handed at the home's version `handedAt`. Never changed once made: every watcher that
 * registers the same on the same home shares it, and the watch socket writes the frames of `events` once per
 * vocabulary for all of them (docs/watching.md).
 */
export interface RegistrationAnswer {
  readonly channels: number
  readonly interests: ReadonlyMap<ChannelId, Interest>
  readonly events: ReadonlyArray<WatchEvent>
  readonly handed: ReadonlySet<ChannelId>
  readonly handedAt: number
}

interface Kept {
  readonly answer: RegistrationAnswer
  readonly topologyVersion: number
  /** The home's version, for an answer with current values: any value the home takes changes them. */
  readonly version: number | undefined
}

/**
 * The answers of the last registrations of many channels (a dashboard's `{}`), by what the registration
 * says, each kept while the home it was made of is the same: the same connected channels and tags
 * (`topologyVersion`), and, when it hands current values, the same values too (`version`). A registration
 * is the one its token's scope narrowed (src/domain/Access.ts), so that a token that reaches part of the
 * home is answered with that part, never with a wider token's answer. At most `capacity` are kept.
 */
export class RegistrationAnswers {
  private readonly kept = new Map<string, Kept>()

  constructor(private readonly home: HomeView, private readonly capacity: number = 4) {}

  /** The answer kept for `registration`, if the home is still the one it was made of. */
  find(registration: WatchRegistration): RegistrationAnswer | undefined {
    const key = keyOf(registration)
    const kept = this.kept.get(key)
    if (kept === undefined) return undefined
    if (!this.holds(kept)) {
      this.kept.delete(key)
      return undefined
    }
    return kept.answer
  }

  /** Keeps `answer`, made of the home as it is now, for `registration`; the oldest answer goes if too many are kept. */
  keep(registration: WatchRegistration, answer: RegistrationAnswer): void {
    for (const [key, kept] of this.kept) if (!this.holds(kept)) this.kept.delete(key)
    const oldest = this.kept.keys().next()
    if (this.kept.size >= this.capacity && oldest.done !== true) this.kept.delete(oldest.value)
    const version = registration.some((target) => target.initialValues) ? this.home.version : undefined
    this.kept.set(keyOf(registration), { answer, topologyVersion: this.home.topologyVersion, version })
  }

  private holds(kept: Kept): boolean {
    return kept.topologyVersion === this.home.topologyVersion && (kept.version === undefined || kept.version === this.home.version)
  }
}

/** A registration as a key: the same targets, in the same order, give the same answer. */
const keyOf = (registration: WatchRegistration): string => JSON.stringify(registration)
