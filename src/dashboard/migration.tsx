import { render } from "preact"
import { Header } from "./Header.tsx"
import { MigrationPage } from "./MigrationPage.tsx"
import { forgetToken, savedToken } from "./Session.ts"

/**
 * The migration page (`/migration`), a bundle of its own: it carries both vocabularies' codecs and the
 * translation, and not the home's live machinery. Its session is the tab's, signed in at `/`.
 */

const signIn = () => {
  forgetToken()
  location.assign("/")
}

const root = document.getElementById("app")
const token = savedToken()
if (token === undefined) location.replace("/")
else if (root !== null) {
  render(
    <>
      <Header current="migration" token={token} onSignedOut={signIn} />
      <MigrationPage token={token} onExpired={signIn} />
    </>,
    root
  )
}
