import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Path from "effect/Path"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"

/** Quiet time after the last event before the file is read: editors save in several steps. */
const settle = Duration.millis(100)

/**
 * Runs `onChange` after the file at `file` changes, in the caller's scope. The directory is watched,
 * not the file, so that a file replaced by a rename (as many editors save) is noticed like one rewritten
 * in place. Returns once the watcher is installed, so that no later change is missed.
 */
export const watchHomeFile = Effect.fnUntraced(function*(file: string, onChange: Effect.Effect<void>) {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const absolute = path.resolve(file)
  const name = path.basename(absolute)
  const ready = yield* Deferred.make<void>()
  yield* fs.watch(path.dirname(absolute), { onReady: () => Deferred.doneUnsafe(ready, Effect.void) }).pipe(
    Stream.filter((event) => path.basename(event.path) === name),
    Stream.debounce(settle),
    Stream.runForEach(() => onChange),
    Effect.tapError((error) => Effect.logError(`cannot watch the home file ${file}: ${error.message}; trying again`)),
    Effect.retry(Schedule.spaced(Duration.seconds(1))),
    Effect.forkScoped
  )
  // A watcher that cannot be installed is retried in the background; the gateway starts anyway.
  yield* Deferred.await(ready).pipe(Effect.timeoutOption(Duration.seconds(5)))
})
