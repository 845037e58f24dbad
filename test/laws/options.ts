/**
 * The options of `npm run laws` (test/laws/run.ts), handed to the test workers in the environment: how
 * many runs each law makes (its own default if absent), the seed, the one law to run, and the path of a
 * counterexample to replay. The seed is fixed by default so that `npm test`, `npm run laws` and the
 * mutation testing check the same inputs; `--seed` explores others. The mutation testing wants only
 * whether a law fails, not its smallest counterexample: it skips the shrinking (`LAWS_NO_SHRINK`).
 * `npm run laws` runs every law at its full default runs (`LAWS_FULL`); `npm test` runs fewer (the first
 * half of most, fewer for those whose runs each start gateways: test/laws/law.ts): the first inputs of the
 * same sequence.
 */
export const defaultSeed = 26

const given = (name: string): string | undefined => {
  const value = process.env[name]
  return value === undefined || value === "" ? undefined : value
}

const number = (name: string): number | undefined => {
  const value = given(name)
  return value === undefined ? undefined : Number(value)
}

export const lawOptions = {
  runs: number("LAWS_RUNS"),
  seed: number("LAWS_SEED") ?? defaultSeed,
  law: given("LAWS_LAW"),
  path: given("LAWS_PATH"),
  shrink: given("LAWS_NO_SHRINK") === undefined,
  full: given("LAWS_FULL") !== undefined
}
