import { ConfigProvider, Effect } from "effect"
import { describe, expect, it } from "vitest"
import { defaultPasswordCost } from "../../src/auth/Password.ts"
import { passwordCostSetting, testPasswordCost } from "../../src/cli/PasswordCostSetting.ts"

const costWith = (env: Record<string, string>) =>
  Effect.runSync(passwordCostSetting.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))))

describe("GATEWAY_TEST_PASSWORD_COST", () => {
  it("lowers the cost of new password hashes only when it says low", () => {
    expect(costWith({ GATEWAY_TEST_PASSWORD_COST: "low" })).toEqual(testPasswordCost)
    expect(testPasswordCost.N).toBeLessThan(defaultPasswordCost.N)
  })

  it("leaves the gateway's cost when unset, empty or anything else", () => {
    const envs: ReadonlyArray<Record<string, string>> = [{}, { GATEWAY_TEST_PASSWORD_COST: "" }, { GATEWAY_TEST_PASSWORD_COST: "LOW" }, { GATEWAY_TEST_PASSWORD_COST: "1" }]
    for (const env of envs) {
      expect({ env, cost: costWith(env) }).toEqual({ env, cost: defaultPasswordCost })
    }
  })
})
