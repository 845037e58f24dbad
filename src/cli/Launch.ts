// First: Effect's schema JIT compiles every schema the gateway decodes with (request bodies, frames),
// once, the first time it is used; it must be enabled before any schema is built.
import "effect/schema/SchemaJITCompiler/enable"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import { PasswordCost } from "../auth/Password.ts"
import { runCli } from "./Cli.ts"
import { teardown } from "./ExitCode.ts"
import { passwordCostSetting } from "./PasswordCostSetting.ts"

// Logs go to stderr: stdout carries only what scripts read (`listening on …`, `translate`'s output).
runCli.pipe(
  Effect.provideServiceEffect(PasswordCost, passwordCostSetting),
  Effect.provide(NodeServices.layer),
  Effect.provideService(Logger.LogToStderr, true),
  NodeRuntime.runMain({ teardown })
)
