import { Result } from "effect"
import { Right, type Scope } from "../../domain/Scope.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import type { Decoded } from "../common/JsonInput.ts"
import { describeJson, invalid, readEach, readObjectWithKeys, readRequired } from "../common/JsonInput.ts"
import type { Unexpressible } from "../common/Unexpressible.ts"
import { decodeEitherChannelSelectors, encodeEitherChannelSelectors } from "./SelectorJson.ts"

/**
 * A token's scope as an operator writes it (`gateway tokens create --scope`):
 * `{"channels": <channel selector(s) as for /channels/tag>, "rights": ["read", "write", "watch", "tag"]}`.
 * The selectors are vocabulary B's, mechanism free (`{"id": …}`, `{"tags": […]}`, `{"service": …}`…).
 */

const rightNames: ReadonlyArray<string> = Right.literals
const isRight = (json: unknown): json is Right => typeof json === "string" && rightNames.includes(json)

const decodeRight = (json: unknown, path: InputPath): Decoded<Right> =>
  isRight(json)
    ? Result.succeed(json)
    : invalid(path, `expected one of ${rightNames.map((r) => JSON.stringify(r)).join(", ")}, got ${describeJson(json)}`)

const decodeRights = (json: unknown, path: InputPath): Decoded<ReadonlyArray<Right>> =>
  Array.isArray(json)
    ? Result.map(readEach(json, path, decodeRight), (rights) => [...new Set(rights)])
    : invalid(path, `expected an array of rights, got ${describeJson(json)}`)

export const decodeScope = (json: unknown): Decoded<Scope> =>
  Result.gen(function*() {
    const object = yield* readObjectWithKeys(json, [], "a scope", ["channels", "rights"])
    return {
      channels: yield* readRequired(object, "channels", [], decodeEitherChannelSelectors),
      rights: yield* readRequired(object, "rights", [], decodeRights)
    }
  })

export const encodeScope = (scope: Scope): Result.Result<unknown, Unexpressible> =>
  Result.map(encodeEitherChannelSelectors(scope.channels), (channels) => ({ channels, rights: scope.rights }))
