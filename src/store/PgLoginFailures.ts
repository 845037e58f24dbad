import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type Budget, LoginFailures, type Tally } from "../auth/LoginFailures.ts"
import { millisecondsAt, PgDatabase, statementOn } from "./PgDatabase.ts"

/**
 * Each budget's newest failures within the window, up to its limit ($3 pair, $4 user, $5 address), the
 * window $6: how many, and in how many ms the oldest of them leaves it. One statement, on the database's clock.
 */
const tallies = `
  WITH recent AS (
    SELECT username, address, cleared, at FROM login_failures
    WHERE (username = $1 OR address = $2) AND at > now() - ${millisecondsAt(6)}
  ),
  pair AS (SELECT at FROM recent WHERE username = $1 AND address = $2 AND NOT cleared ORDER BY at DESC LIMIT $3),
  of_user AS (SELECT at FROM recent WHERE username = $1 AND NOT cleared ORDER BY at DESC LIMIT $4),
  of_address AS (SELECT at FROM recent WHERE address = $2 ORDER BY at DESC LIMIT $5)
  ${
  [["pair", "pair"], ["user", "of_user"], ["address", "of_address"]].map(([budget, table]) =>
    `SELECT '${budget}' AS budget, count(*)::int AS failures,
            coalesce(extract(epoch FROM min(at) + ${millisecondsAt(6)} - now()) * 1000, 0)::float8 AS leaves_in FROM ${table}`
  ).join(" UNION ALL ")
}`

/** One failure, the window's older ones swept away (from every key: a key never tried again is not kept forever). */
const added = `
  WITH swept AS (DELETE FROM login_failures WHERE at <= now() - ${millisecondsAt(4)})
  INSERT INTO login_failures (username, address, cleared) VALUES ($1, $2, $3)`

/** LoginFailures in PostgreSQL's `login_failures` table, shared by every replica on the database. */
export const PgLoginFailures = Layer.effect(
  LoginFailures,
  Effect.gen(function*() {
    const { sql } = yield* PgDatabase
    const query = statementOn(sql)
    return LoginFailures.of({
      tally: (username, address, limits, windowMs) =>
        Effect.map(
          query<{ readonly budget: Budget; readonly failures: number; readonly leaves_in: number }>(
            "SELECT … FROM login_failures",
            tallies,
            [username, address, limits.pair, limits.user, limits.address, windowMs]
          ),
          (rows) => {
            const of = (budget: Budget): Tally => {
              const row = rows.find((one) => one.budget === budget)
              return { failures: row?.failures ?? 0, oldestLeavesInMs: row?.leaves_in ?? 0 }
            }
            return { pair: of("pair"), user: of("user"), address: of("address") }
          }
        ),
      add: (username, address, cleared, windowMs) => Effect.asVoid(query("INSERT INTO login_failures …", added, [username, address, cleared, windowMs])),
      clear: (username, address) =>
        Effect.asVoid(query(
          "UPDATE login_failures SET cleared …",
          "UPDATE login_failures SET cleared = true WHERE username = $1 AND address = $2 AND NOT cleared",
          [username, address]
        ))
    })
  })
)
