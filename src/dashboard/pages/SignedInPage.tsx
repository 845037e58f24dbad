import type { ComponentType } from "preact"
import { render } from "preact"
import { Header, type PageName } from "../components/Header.tsx"
import { signInReturningTo } from "../state/ReturnTo.ts"
import { endSession, expiredNotice, savedToken, signedOutNotice } from "../state/Session.ts"

/** What a signed-in page is given: the session's token, and what to do when the gateway no longer takes it. */
export interface PageProps {
  readonly token: string
  readonly onExpired: () => void
}

/** Back to `/`, without the session: its sign-in form, saying why, and returning here once signed in again. */
const toSignIn = (notice: string) => () => {
  endSession(notice)
  location.assign(signInReturningTo(location.pathname))
}

/**
 * Shows `Page` under the header, as the page `name` of its own bundle (`/tokens`, `/migration`): each
 * carries only what it uses. The session is the tab's, signed in at `/`; without one, the page goes there,
 * and the sign-in comes back.
 */
export const showSignedIn = (name: PageName, Page: ComponentType<PageProps>): void => {
  const root = document.getElementById("app")
  const token = savedToken()
  if (token === undefined) {
    location.replace(signInReturningTo(location.pathname))
    return
  }
  if (root === null) return
  render(
    <>
      <Header current={name} token={token} onSignedOut={toSignIn(signedOutNotice)} />
      <Page token={token} onExpired={toSignIn(expiredNotice)} />
    </>,
    root
  )
}
