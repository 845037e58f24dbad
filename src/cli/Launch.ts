import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Effect, Logger } from "effect"
import { runCli } from "./Cli.ts"
import { teardown } from "./ExitCode.ts"

// Logs go to stderr: stdout carries only what scripts read (`listening on …`, `translate`'s output).
runCli.pipe(Effect.provide(NodeServices.layer), Effect.provideService(Logger.LogToStderr, true), NodeRuntime.runMain({ teardown }))
