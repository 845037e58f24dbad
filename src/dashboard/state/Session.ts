/**
 * The session token of this tab: kept in `sessionStorage`, so it lives as long as the tab and is not
 * shared with other tabs or kept after the browser closes (docs/dashboard.md). Beside it, the words the
 * sign-in form shows when a page ended the session (each page is a document of its own).
 */

const key = "gateway.session"
const noticeKey = "gateway.notice"

export const savedToken = (): string | undefined => sessionStorage.getItem(key) ?? undefined

export const saveToken = (token: string): void => sessionStorage.setItem(key, token)

/** Why a session ends, as the sign-in form says it. */
export const signedOutNotice = "You are signed out."
export const expiredNotice = "Your session has ended: sign in again."

/** Where the Migration page keeps its comparison token (state/ComparisonToken.ts), forgotten with the session. */
export const comparisonTokenKey = "gateway.comparison"

export const forgetToken = (): void => {
  sessionStorage.removeItem(key)
  sessionStorage.removeItem(comparisonTokenKey)
}

/** Forgets the session, and keeps `notice` for the sign-in form at `/` to say once. */
export const endSession = (notice: string): void => {
  forgetToken()
  sessionStorage.setItem(noticeKey, notice)
}

/** The words a page left for the sign-in form, once. */
export const takeNotice = (): string | undefined => {
  const notice = sessionStorage.getItem(noticeKey) ?? undefined
  sessionStorage.removeItem(noticeKey)
  return notice
}
