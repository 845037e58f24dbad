import * as PgClient from "@effect/sql-pg/PgClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as PubSub from "effect/PubSub"
import * as Queue from "effect/Queue"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { randomUUID } from "node:crypto"
import { StoreError } from "../domain/StoreError.ts"
import { asStoreError, PgDatabase } from "./PgDatabase.ts"

/** The one LISTEN/NOTIFY channel of the gateways on a database. */
export const feedChannel = "home_gateway"

/**
 * What a NOTIFY on the channel says. `auth`: users or tokens changed (told by the triggers of migration
 * 2, whoever changed them). `tags`: a TagStore call of the replica `origin`, its `seq`-th; `reload`
 * instead of the pairs when they would not fit NOTIFY's 8000 bytes. `beat`: a replica's keep-alive.
 */
const Notice = Schema.Union([
  Schema.Struct({ about: Schema.Literal("auth") }),
  Schema.Struct({
    about: Schema.Literal("tags"),
    origin: Schema.String,
    seq: Schema.Number,
    ownerKind: Schema.Literals(["service", "channel"]),
    ids: Schema.Array(Schema.String),
    tags: Schema.Array(Schema.String),
    added: Schema.Boolean
  }),
  Schema.Struct({ about: Schema.Literal("tags"), origin: Schema.String, seq: Schema.Number, reload: Schema.Literal(true) }),
  Schema.Struct({ about: Schema.Literal("beat"), origin: Schema.String })
])
type Notice = typeof Notice.Type

/** A tag notice, or `lost`: the feed was lost and is back, and what it missed is unknown. */
export type TagNotice = Extract<Notice, { readonly about: "tags" }> | { readonly about: "lost" }

const readNotice = Schema.decodeUnknownOption(Schema.fromJsonString(Notice))

/** How often a replica sends itself a keep-alive through the database, and how late it may come back. */
export const beatEvery = 1_000
export const beatLate = 3_000
/** How often the keep-alive's return is looked for: a silent cut is noticed at most this long after `beatLate`. */
const beatChecked = 250

export interface PgChangeFeedShape {
  /** This process, as its tag notices name it: so it tells its own changes from others'. */
  readonly origin: string
  /** Subscribes now, for the scope: the tag notices of every process (this one's too), in commit order. */
  readonly tagNotices: Effect.Effect<Stream.Stream<TagNotice>, never, Scope.Scope>
}

/**
 * Listens to the database's changes, for this replica to follow what the others (and the command line)
 * change: on `auth`, the users' and tokens' generation is replaced (token caches empty, watch sockets
 * check their tokens); tag notices go to the TagStore's feed. Two connections of its own, not the
 * pool's, listen and send the keep-alive. The listening one is noticed lost when it closes (a killed
 * backend, a restarted server) or when this replica's keep-alive, a NOTIFY sent every `beatEvery`, has
 * not come back within `beatLate` (a network cut silently);
 * it is then opened again (at once, then every second until it is), and what it may have missed is reloaded whole:
 * the generation replaced, the tags loaded again (`lost`).
 */
const follow = Effect.gen(function*() {
  const { sql, wrote } = yield* PgDatabase
  const origin = randomUUID()
  const hub = yield* PubSub.unbounded<TagNotice>()
  let lastBeat = 0
  /** Whether the current attempt got as far as listening. */
  let listened = false

  const heard = (notice: Notice): Effect.Effect<void> => {
    switch (notice.about) {
      case "auth":
        return wrote
      case "beat":
        return notice.origin === origin ? Effect.sync(() => void (lastBeat = Date.now())) : Effect.void
      case "tags":
        return Effect.asVoid(PubSub.publish(hub, notice))
    }
  }

  const keepAlive = (client: PgClient.PgClient) => Effect.gen(function*() {
    // Each sent beside the others and the checks: a connection cut silently must not hold them up.
    const beat = Effect.ignore(client.notify(feedChannel, JSON.stringify({ about: "beat", origin })).pipe(Effect.timeout(beatLate)))
    yield* Effect.forkScoped(Effect.repeat(Effect.forkScoped(beat), Schedule.spaced(beatEvery)))
    for (;;) {
      yield* Effect.sleep(beatChecked)
      const now = yield* Clock.currentTimeMillis
      if (now - lastBeat > beatLate) return yield* new StoreError({ operation: `LISTEN ${feedChannel}`, reason: `no keep-alive came back within ${beatLate} ms` })
    }
  })

  const listening = yield* Deferred.make<void>()
  const listenedTo = Effect.gen(function*() {
    // Connections of their own, new at each attempt: a pool's, cut with the listener, would be handed out again.
    const client = yield* PgClient.makeClient({ ...sql.config, acquireForStream: true, keepAlive: "10 seconds" }).pipe(
      Effect.mapError(asStoreError(`connecting to listen to ${feedChannel}`))
    )
    const queue = yield* Effect.mapError(client.listen(feedChannel), asStoreError(`LISTEN ${feedChannel}`))
    lastBeat = Date.now()
    listened = true
    // Missed meanwhile, if this is not the first LISTEN: unknown, so everything is followed anew.
    if (yield* Deferred.isDone(listening)) {
      yield* wrote
      yield* PubSub.publish(hub, { about: "lost" })
    }
    yield* Deferred.succeed(listening, undefined)
    const consume = Effect.forever(Effect.flatMap(
      Effect.mapError(Queue.take(queue), asStoreError(`LISTEN ${feedChannel}`)),
      (notification) => Option.match(readNotice(notification.payload), { onNone: () => Effect.void, onSome: heard })
    ))
    return yield* Effect.raceFirst(consume, keepAlive(client))
  })
  // A lost connection is let go aside: releasing one cut silently waits as long as the system keeps it.
  const listenOnce = Effect.flatMap(Scope.make(), (scope) =>
    listenedTo.pipe(
      Scope.provide(scope),
      Effect.onExit((exit) => Exit.hasFails(exit) ? Effect.asVoid(Effect.forkDetach(Scope.close(scope, exit))) : Scope.close(scope, exit))
    ))

  // A connection that was listening is opened again at once, for the gap to be short; one that could
  // not be opened, after a second, not to hammer a database that is down.
  yield* Effect.forkScoped(Effect.forever(Effect.gen(function*() {
    listened = false
    yield* Effect.catch(listenOnce, (error) => Effect.logWarning(`the change feed of the database was lost (${error.message}); listening again`))
    if (!listened) yield* Effect.sleep("1 second")
  })))
  yield* Deferred.await(listening).pipe(
    Effect.timeoutOrElse({
      duration: "10 seconds",
      orElse: () => Effect.fail(new StoreError({ operation: `LISTEN ${feedChannel}`, reason: "not listening within 10 s" }))
    })
  )
  return PgChangeFeed.of({ origin, tagNotices: Effect.map(PubSub.subscribe(hub), Stream.fromSubscription) })
})

/** What the other gateways on the database (and the command line) change, as this one hears it. */
export class PgChangeFeed extends Context.Service<PgChangeFeed, PgChangeFeedShape>()("app/PgChangeFeed") {
  static readonly layer = Layer.effect(PgChangeFeed, follow).pipe(Layer.provide(Reactivity.layer))
}
