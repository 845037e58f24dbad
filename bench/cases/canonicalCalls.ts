import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { Context, Effect, Layer, Option } from "effect"
import { vocabularyA } from "../../src/api/VocabularyA.ts"
import { vocabularyB } from "../../src/api/VocabularyB.ts"
import { Simulator } from "../../src/adapters/simulator/Simulator.ts"
import { CurrentCaller } from "../../src/auth/CurrentCaller.ts"
import type { Caller } from "../../src/domain/Access.ts"
import type { Dispatch } from "../../src/gateway/Dispatch.ts"
import * as GatewayLayer from "../../src/gateway/GatewayLayer.ts"
import { HealthConditions } from "../../src/gateway/HealthConditions.ts"
import type { Registry } from "../../src/gateway/Registry.ts"
import { defaultGatewayOptions } from "../../src/GatewayOptions.ts"
import * as Canonical from "../../src/http/routes/CanonicalCalls.ts"
import { Database } from "../../src/store/Database.ts"
import { SqliteTagStore } from "../../src/store/SqliteTagStore.ts"
import type { Decoded } from "../../src/vocabulary/common/InvalidInput.ts"
import type { AnyBenchCase } from "../Harness.ts"
import { tempDir } from "../support/TempDir.ts"
import { oneLampHome } from "./requestPath.ts"

/**
 * The canonical read and write path below HTTP (issue 40): a body's JSON text read with its endpoint's
 * shape, the canonical call on the gateway core with the simulator, and the answer written with its
 * endpoint's shape into JSON text; against the same text answered by `JSON.parse`, a `Map` and
 * `JSON.stringify`. What the in-process cases add to it is the request path's (src/http).
 */

const getter = "getter:lamp-on@bench"
const setter = "setter:lamp-on@bench"

const admin: Caller = { user: { name: "admin" }, tokenId: 1, kind: "api", scope: Option.none() }

/** The gateway core on the one-lamp home, with the admin as the caller. */
const core = Effect.gen(function*() {
  const dataDir = yield* tempDir
  const home = join(dataDir, "home.json")
  writeFileSync(home, JSON.stringify(oneLampHome))
  const gateway = Simulator.layer({ home: Option.some(home) }).pipe(
    Layer.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)),
    Layer.provideMerge(GatewayLayer.layer({ deviceTimeout: defaultGatewayOptions.deviceTimeoutMs })),
    Layer.provideMerge(SqliteTagStore.pipe(Layer.provide(Database.layer({ dataDir })))),
    Layer.provideMerge(HealthConditions.layer)
  )
  const context = yield* Layer.build(gateway).pipe(Effect.orDie)
  return Context.add(context, CurrentCaller, admin)
})

interface Call {
  readonly name: string
  readonly body: string
  /** The call on the core, from the body's JSON to the answer's. */
  readonly answer: (json: unknown) => Effect.Effect<unknown, unknown, CurrentCaller | Dispatch | Registry>
  /** The same answer's JSON, from the body's JSON, by hand. */
  readonly byHand: (json: unknown, values: ReadonlyMap<string, unknown>) => unknown
}

/** An endpoint's body read, the call, and the answer written, as its route does them. */
const through = <B, A>(
  endpoint: {
    readonly body: { read(json: unknown, query: {}): Decoded<B> }
    readonly answer: { readonly shape: { readonly write: (value: A) => unknown } }
  },
  call: (body: B, context: Context.Context<Canonical.ValueCallNeeds>) => Effect.Effect<A, unknown>
): Call["answer"] =>
(json) =>
  Effect.contextWith((context: Context.Context<Canonical.ValueCallNeeds>) =>
    Effect.map(Effect.flatMap(Effect.fromResult(endpoint.body.read(json, {})), (body) => call(body, context)), (answer) => endpoint.answer.shape.write(answer))
  )

const calls: ReadonlyArray<Call> = [
  {
    name: "fetch_values, one getter (B)",
    body: `[{"id":"${getter}"}]`,
    answer: through(vocabularyB.fetch_values, (body, context) => Canonical.fetchValues(body, Canonical.authenticatedUser, context)),
    byHand: (json, values) => Object.fromEntries((json as Array<{ id: string }>).map(({ id }) => [id, values.get(id) ?? null]))
  },
  {
    name: "get_channel_value, one input (A)",
    body: `[{"id":{"Exactly":"${getter}"}}]`,
    answer: through(vocabularyA.get_channel_value, (body, context) => Canonical.fetchValues(body, Canonical.anonymous, context)),
    byHand: (json, values) =>
      (json as Array<{ id: { Exactly: string } }>).map(({ id }) => [id.Exactly, { Ok: values.get(id.Exactly) ?? null }])
  },
  {
    name: "send_values, one setter (B)",
    body: `{"select":{"id":"${setter}"},"value":{"OnOff":"On"}}`,
    answer: through(vocabularyB.send_values, (body, context) => Canonical.sendValues(body, Canonical.authenticatedUser, context)),
    byHand: (json) => ({ [(json as { select: { id: string } }).select.id]: null })
  },
  {
    name: "put_channel_value, one output (A)",
    body: `{"set":[{"id":{"Exactly":"${setter}"}}],"value":{"OnOff":"On"}}`,
    answer: through(vocabularyA.put_channel_value, (body, context) => Canonical.sendValues(body, Canonical.anonymous, context)),
    byHand: (json) => (json as { set: Array<{ id: { Exactly: string } }> }).set.map(({ id }) => [id.Exactly, { Ok: null }])
  }
]

const canonicalCase = (c: Call): AnyBenchCase => ({
  name: `canonical call: ${c.name}`,
  acquire: Effect.gen(function*() {
    const context = yield* core
    const values = new Map<string, unknown>([[getter, { OnOff: "On" }]])
    const baseline = Effect.sync(() => JSON.stringify(c.byHand(JSON.parse(c.body), values)))
    const subject = Effect.suspend(() => Effect.map(c.answer(JSON.parse(c.body)), (json) => JSON.stringify(json))).pipe(
      Effect.provideContext(context)
    )
    // Both answer the same text, or the comparison means nothing.
    const [by, through] = [yield* baseline, yield* Effect.orDie(subject)]
    if (by !== through) return yield* Effect.die(new Error(`${c.name}: ${through}, by hand ${by}`))
    return {
      baseline: { name: "JSON.parse, a Map, JSON.stringify", run: baseline },
      subject: { name: "read, call, write", run: subject }
    }
  })
})

export const cases: ReadonlyArray<AnyBenchCase> = calls.map(canonicalCase)
