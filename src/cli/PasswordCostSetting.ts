import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import { defaultPasswordCost, type PasswordCost } from "../auth/Password.ts"

/** scrypt at N = 2^10: about 8 ms of CPU a hash, against a quarter of a second at the gateway's cost. */
export const testPasswordCost: PasswordCost = { N: 1_024, r: 8, p: 1 }

/**
 * The cost the gateway hashes new passwords at: its own, unless `GATEWAY_TEST_PASSWORD_COST=low` asks
 * for `testPasswordCost`. Only the test suite sets it, for the gateways it spawns: a first run hashes the
 * admin's password, a quarter of a spawned start's CPU (docs/configuration.md says it is for tests only).
 * A hash keeps its parameters, so whatever a gateway hashed, any gateway checks.
 */
export const passwordCostSetting: Effect.Effect<PasswordCost> = Effect.match(Config.Literal("low", "GATEWAY_TEST_PASSWORD_COST"), {
  onFailure: () => defaultPasswordCost,
  onSuccess: () => testPasswordCost
})
