import { links } from "../components/Header.tsx"

/**
 * Where a sign-in returns to: the page that sent the tab to the sign-in form at `/` (no session, or its
 * session ended) names itself in `?return=`, and the sign-in goes back there. Only the dashboard's own
 * pages are returned to, so that a link cannot send a fresh session elsewhere.
 */

const parameter = "return"

/** The sign-in form's address, returning to the page at `path`. */
export const signInReturningTo = (path: string): string => `/?${new URLSearchParams({ [parameter]: path })}`

/** The page this sign-in returns to, if the address names one of the dashboard's pages other than the home. */
export const returnPage = (): string | undefined => {
  const path = new URLSearchParams(location.search).get(parameter)
  return links.some((link) => link.href === path && link.page !== "home") && path !== null ? path : undefined
}
