import * as Context from "effect/Context"
import type * as Option from "effect/Option"

export interface HomeFileStatusShape {
  /** The home file the operator edits, or `None` for the built-in demo home. */
  readonly file: Option.Option<string>
  /** Why the last change of the file was refused, if it was; cleared by the next change applied. Known at once. */
  readonly refusedChange: () => Option.Option<string>
}

/**
 * How the home file is doing, for `/health`: offered by the adapter that reads the file (the simulator),
 * so that the HTTP layer reports it without knowing that adapter.
 */
export class HomeFileStatus extends Context.Service<HomeFileStatus, HomeFileStatusShape>()("app/HomeFileStatus") {}
