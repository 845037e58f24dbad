import type { Page } from "playwright-core"

/**
 * The worker's tab (`tabOfFile` in browser.ts) is shared by the tests of a file and the files after:
 * each test starts by showing its page with `show`, which leaves the tab as a new one would be; what a
 * test still sees of the ones before is the console, read with `errorsFromNow`.
 */

/**
 * Shows `url` in the tab as a new tab would show it: its session storage (where the dashboard keeps the
 * session, the comparison token and the signed-out notice: src/dashboard/state) emptied, and holding
 * `session` if one is given, before the page's own scripts run. A tab signed in without the sign-in form,
 * which the tests of signing in test.
 */
export const show = async (page: Page, url: string, session?: string): Promise<void> => {
  const asNew = await page.addInitScript(newTabStorage, session ?? null)
  try {
    await page.goto(url)
  } finally {
    // Only for this load: the page's own sign-in and sign-out change the storage after it.
    await asNew.dispose()
  }
}

/** Runs in the page, so it names the dashboard's key itself. */
const newTabStorage = (session: string | null): void => {
  sessionStorage.clear()
  if (session !== null) sessionStorage.setItem("gateway.session", session)
}

/** The console errors a tab shows from now on: a test's own, in a tab the tests before it used. */
export const errorsFromNow = (errors: ReadonlyArray<string>): (() => ReadonlyArray<string>) => {
  const from = errors.length
  return () => errors.slice(from)
}
