import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { TokenCreations } from "../auth/TokenCreations.ts"
import { asStoreError, millisecondsAt, PgDatabase, statementOn } from "./PgDatabase.ts"

/**
 * The user's ($1) newest places within the window ($3), up to the limit ($2): unless there are as many
 * as the limit, one more is held. Older places, of every user, are swept away. On the database's clock.
 */
const held = `
  WITH swept AS (DELETE FROM token_creations WHERE at <= now() - ${millisecondsAt(3)}),
  recent AS (SELECT at FROM token_creations WHERE username = $1 AND at > now() - ${millisecondsAt(3)} ORDER BY at DESC LIMIT $2),
  counted AS (SELECT count(*) >= $2 AS full, extract(epoch FROM min(at) + ${millisecondsAt(3)} - now()) * 1000 AS leaves_in FROM recent),
  place AS (INSERT INTO token_creations (username) SELECT $1 FROM counted WHERE NOT counted.full RETURNING id)
  SELECT (SELECT id FROM place)::float8 AS id, coalesce(leaves_in, 0)::float8 AS leaves_in FROM counted`

/**
 * TokenCreations in PostgreSQL's `token_creations` table, shared by every replica on the database. The
 * count and the place are one transaction under a lock of the user's (an advisory one), so that
 * replicas holding places for one user at once count each other's.
 */
export const PgTokenCreations = Layer.effect(
  TokenCreations,
  Effect.gen(function*() {
    const { sql } = yield* PgDatabase
    const query = statementOn(sql)
    const giveBack = (id: number) => Effect.asVoid(query("DELETE FROM token_creations …", "DELETE FROM token_creations WHERE id = $1", [id]))
    return TokenCreations.of({
      hold: (user, limit, windowMs) =>
        query("SELECT pg_advisory_xact_lock …", "SELECT pg_advisory_xact_lock(hashtextextended('token_creations ' || $1, 0))", [user]).pipe(
          Effect.andThen(query<{ readonly id: number | null; readonly leaves_in: number }>("INSERT INTO token_creations …", held, [user, limit, windowMs])),
          sql.withTransaction,
          Effect.mapError((error) => error._tag === "SqlError" ? asStoreError("a transaction on token_creations")(error) : error),
          Effect.map(([row]) =>
            row === undefined || row.id === null ? Result.fail(row?.leaves_in ?? 0) : Result.succeed(giveBack(row.id))
          )
        )
    })
  })
)
