#!/usr/bin/env node
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Effect } from "effect"
import { runCli } from "./Cli.ts"
import { teardown } from "./ExitCode.ts"

runCli.pipe(Effect.provide(NodeServices.layer), NodeRuntime.runMain({ teardown }))
