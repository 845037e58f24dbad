import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { parseJson } from "../../vocabulary/common/JsonText.ts"
import { type Answer, comparisonToken } from "../api/Api.ts"
import { comparisonTokenKey } from "./Session.ts"

/**
 * The token the Migration page sends its comparisons with (docs/dashboard.md), so that they are not
 * counted among the clients that still call vocabulary A: asked for at the page's first comparison, kept
 * in the tab beside the session, and reused until it expires (a day at most). The gateway keeps one per
 * user: a tab that asks for another revokes this one, and a comparison refused for it asks again.
 */

const Kept = Schema.Struct({ secret: Schema.String, expiresAt: Schema.Number })
type Kept = typeof Kept.Type

// Asked for anew a minute before its end: a comparison sent as it ends would be refused halfway.
const marginMs = 60_000

const kept = (): Kept | undefined => {
  const json = parseJson(sessionStorage.getItem(comparisonTokenKey) ?? "")
  return Result.isSuccess(json) && Schema.is(Kept)(json.success) ? json.success : undefined
}

export const forgetComparisonToken = (): void => sessionStorage.removeItem(comparisonTokenKey)

/** The comparison token to send with: the one kept while it lasts, else a new one, asked for with the session. */
export const comparisonTokenFor = async (session: string): Promise<Answer<string>> => {
  const known = kept()
  if (known !== undefined && known.expiresAt - marginMs > Date.now()) return { ok: true, value: known.secret }
  const made = await comparisonToken(session)
  if (!made.ok) return made
  const { secret, expiresAt } = made.value
  sessionStorage.setItem(comparisonTokenKey, JSON.stringify({ secret, expiresAt: expiresAt ?? Number.MAX_SAFE_INTEGER }))
  return { ok: true, value: secret }
}
