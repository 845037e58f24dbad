import { hash } from "node:crypto"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Path from "effect/Path"
import * as Result from "effect/Result"
import type * as Scope from "effect/Scope"
import type { PlatformError } from "effect/PlatformError"
import type { AdapterId } from "../../domain/Identifier.ts"
import { HomeFileStatus } from "../../gateway/HomeFileStatus.ts"
import type { HomeView } from "../../gateway/HomeIndex.ts"
import { Registry } from "../../gateway/Registry.ts"
import { demoHome } from "./DemoHome.ts"
import { decodeHome, type Home, InvalidHomeFile, parseHomeFile, type SimulatedGetter, type SimulatedService, type SimulatedSetter } from "./HomeFile.ts"
import { watchHomeFile } from "./HomeFileWatch.ts"
import { makeSimulatedDevices, type SimulatedDevices } from "./SimulatedDevices.ts"

/** Where the simulated home comes from: a file the operator edits, or the built-in demo home. */
export type HomeSource =
  | { readonly _tag: "File"; readonly path: string }
  | { readonly _tag: "Demo" }

const demo: HomeSource = { _tag: "Demo" }
const file = (path: string): HomeSource => ({ _tag: "File", path })

export const HomeSource = {
  file,
  demo,
  /** The `--home` option: a file, or the demo home when none is given. */
  fromOption: (home: Option.Option<string>): HomeSource => Option.match(home, { onNone: () => demo, onSome: file })
}

export const demoHomeSource = "the built-in demo home"

export interface StartOptions {
  /** Whether this gateway is one replica of several (`--database-url`): a simulated home is then warned of. */
  readonly replica: boolean
}

/** How reloading the home file went so far. */
export interface ReloadStatus {
  /** Changed home files applied since the start. */
  readonly applied: number
  /** Why the last change was not applied, if it was not; cleared by the next applied one. */
  readonly error: Option.Option<InvalidHomeFile>
}

export interface SimulatorShape extends Omit<SimulatedDevices, "apply"> {
  readonly source: HomeSource
  readonly reloads: Effect.Effect<ReloadStatus>
  /** The same, known at once (HomeFileStatus, which `/health` asks without a fiber). */
  readonly reloadStatus: () => ReloadStatus
}

/** A home file may change anything but the adapter id, under which the gateway already knows its devices. */
const sameAdapter = (current: AdapterId, next: Home, source: string): Result.Result<Home, InvalidHomeFile> =>
  next.adapter === current
    ? Result.succeed(next)
    : Result.fail(
      new InvalidHomeFile({
        source,
        path: ["adapter"],
        reason: `the adapter id cannot change from ${JSON.stringify(current)} while the gateway runs (restart it)`
      })
    )

/**
 * Ids of the file that another adapter's devices hold (the clock's, say). Checked before anything is
 * applied, so that such a file is refused whole, like any bad file, and the home in force stays.
 */
const heldElsewhere = (index: HomeView, home: Home, source: string): Result.Result<Home, InvalidHomeFile> => {
  const refuse = (path: ReadonlyArray<string | number>, reason: string) =>
    Result.fail(new InvalidHomeFile({ source, path, reason }))
  // Indexed loops: a large home's 100,000 channels make no pair each on the way.
  for (let i = 0; i < home.services.length; i++) {
    const service = home.services[i] as SimulatedService
    const owner = index.service(service.id)
    if (owner !== undefined && owner.adapter !== home.adapter) {
      return refuse(["services", i, "id"], `${service.id} is already connected through adapter ${owner.adapter}`)
    }
    for (const mechanism of ["getters", "setters"] as const) {
      const channels: ReadonlyArray<SimulatedGetter | SimulatedSetter> = service[mechanism]
      for (let j = 0; j < channels.length; j++) {
        const channel = channels[j] as SimulatedGetter | SimulatedSetter
        const held = index.channel(channel.id)
        if (held !== undefined && held.adapter !== home.adapter) {
          return refuse(
            ["services", i, mechanism, j, "id"],
            `${channel.id} already belongs to ${held.service}, connected through adapter ${held.adapter}`
          )
        }
      }
    }
  }
  return Result.succeed(home)
}

/** Why a file could not be read, in the operator's words. */
const unreadable = (error: PlatformError): string => {
  switch (error.reason._tag) {
    case "NotFound":
      return "no such file"
    case "PermissionDenied":
      return "permission denied"
    default:
      return `cannot read the file: ${error.message}`
  }
}

// Of the file's bytes, not of its text: a large home's 9 MB of text would be encoded again to be hashed.
const digestOf = (bytes: Uint8Array): string => hash("sha256", bytes)

const readHomeBytes = (fs: FileSystem.FileSystem, file: string) =>
  fs.readFile(file).pipe(
    Effect.mapError((error) => new InvalidHomeFile({ source: file, path: [], reason: unreadable(error) }))
  )

/**
 * Connects the simulated home through the Registry for as long as the scope lasts. A home file is
 * watched: each change is applied within about a second; a file that cannot be used is logged and the
 * home in force stays. A file that cannot be used at the start is the failure of `start`.
 */
const start = Effect.fn("Simulator.start")(function*(
  source: HomeSource,
  options: StartOptions = { replica: false }
): Effect.fn.Return<
  SimulatorShape,
  InvalidHomeFile,
  Registry | FileSystem.FileSystem | Path.Path | Scope.Scope
> {
  const registry = yield* Registry
  const fs = yield* FileSystem.FileSystem
  // A file is watched before it is first read, so that no change after that read goes unseen (and the
  // start reads it once): what the watcher hears is applied once the first home is, by `reload` below.
  const reloads = yield* Deferred.make<Effect.Effect<void>>()
  if (source._tag === "File") yield* watchHomeFile(source.path, Effect.flatten(Deferred.await(reloads)))
  const firstBytes = source._tag === "File" ? yield* readHomeBytes(fs, source.path) : new Uint8Array()
  // A digest of the file in force, not the file: a large home's file would be held for the comparison alone.
  let lastDigest = digestOf(firstBytes)
  const sourceName = source._tag === "File" ? source.path : demoHomeSource
  const initial = yield* Effect.fromResult(
    Result.flatMap(
      source._tag === "File" ? parseHomeFile(firstBytes, source.path) : decodeHome(demoHome, demoHomeSource),
      (home) => heldElsewhere(registry.index, home, sourceName)
    )
  )

  // What reloads compare with is the adapter id, not the first home, which the devices replace.
  const adapter = initial.adapter
  const devices = yield* makeSimulatedDevices(adapter, registry.register)
  yield* devices.apply(initial)
  // Replicas share a database and a broker, not this process's memory: each would show a home of its own under the same ids.
  if (options.replica && initial.services.length > 0) {
    yield* Effect.logWarning(
      `each replica simulates its own devices: the simulated home (${sourceName}) lives in this gateway alone, and the other gateways on the database neither see its writes nor share its values`
    )
  }
  let status: ReloadStatus = { applied: 0, error: Option.none() }

  if (source._tag === "File") {
    const refused = (error: InvalidHomeFile) =>
      Effect.gen(function*() {
        status = { ...status, error: Option.some(error) }
        yield* Effect.logError(`${error.message} — keeping the previous home`)
      })
    const reload = Effect.gen(function*() {
      const bytes = yield* readHomeBytes(fs, source.path)
      // Editors and the watcher report one save several times: an unchanged file is nothing to do, not even to decode.
      const digest = digestOf(bytes)
      if (digest === lastDigest) return
      lastDigest = digest
      const next = yield* Effect.fromResult(
        parseHomeFile(bytes, source.path).pipe(
          Result.flatMap((home) => sameAdapter(adapter, home, source.path)),
          Result.flatMap((home) => heldElsewhere(registry.index, home, source.path))
        )
      )
      const diff = yield* devices.apply(next)
      status = { applied: status.applied + 1, error: Option.none() }
      yield* Effect.logInfo(
        `home reloaded from ${source.path}: ${diff.added.length} added, ${diff.removed.length} removed, ${diff.changed.length} changed`
      )
    }).pipe(Effect.catchTag("InvalidHomeFile", refused), Effect.withSpan("Simulator.reload"))
    yield* Deferred.succeed(reloads, reload)
  }

  return {
    adapter: devices.adapter,
    home: devices.home,
    getterValue: devices.getterValue,
    lastSent: devices.lastSent,
    lastWriter: devices.lastWriter,
    source,
    reloads: Effect.sync(() => status),
    reloadStatus: () => status
  }
}, Effect.annotateLogs({ component: "simulator" }))

/** The simulator's home file as the core's HomeFileStatus tells it (to `/health`). */
const homeFileStatus = Layer.effect(
  HomeFileStatus,
  Effect.gen(function*() {
    const simulator = yield* Simulator
    return HomeFileStatus.of({
      file: simulator.source._tag === "File" ? Option.some(simulator.source.path) : Option.none(),
      refusedChange: () => Option.map(simulator.reloadStatus().error, (error) => error.message)
    })
  })
)

/**
 * The simulator adapter (docs/simulator.md): a home of simulated devices described by a JSON
 * file, so that the gateway runs, demos and is tested with no hardware.
 */
export class Simulator extends Context.Service<Simulator, SimulatorShape>()("app/Simulator") {
  static readonly start = start
  /** The home file `home` (`--home`), else the demo home; with its HomeFileStatus. */
  static readonly layer = ({ home, replica = false }: { readonly home: Option.Option<string>; readonly replica?: boolean }) =>
    homeFileStatus.pipe(Layer.provideMerge(Layer.effect(Simulator, start(HomeSource.fromOption(home), { replica }))))
}
