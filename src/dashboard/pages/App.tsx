import { useEffect, useState } from "preact/hooks"
import { setupNeeded } from "../api/Api.ts"
import { Problem } from "../components/Field.tsx"
import { Header } from "../components/Header.tsx"
import { HomePage } from "./HomePage.tsx"
import { LoginPage } from "./LoginPage.tsx"
import { returnPage } from "../state/ReturnTo.ts"
import { expiredNotice, forgetToken, savedToken, saveToken, signedOutNotice, takeNotice } from "../state/Session.ts"
import { SetupPage } from "./SetupPage.tsx"

type Screen =
  | { readonly _tag: "Starting" }
  | { readonly _tag: "Unreachable"; readonly message: string }
  | { readonly _tag: "Setup" }
  | { readonly _tag: "Login"; readonly notice?: string }
  | { readonly _tag: "Home"; readonly token: string }

/**
 * The page at `/`: setup on a gateway without users, then login, then the home while the tab has a session;
 * or, for a sign-in another page sent the tab to (`?return=`), that page.
 */
export const App = () => {
  const [screen, setScreen] = useState<Screen>({ _tag: "Starting" })
  useEffect(() => {
    const token = savedToken()
    if (token !== undefined) return setScreen({ _tag: "Home", token })
    const notice = takeNotice()
    void setupNeeded().then((answer) =>
      setScreen(
        !answer.ok
          ? { _tag: "Unreachable", message: answer.message }
          : answer.value
          ? { _tag: "Setup" }
          : notice === undefined
          ? { _tag: "Login" }
          : { _tag: "Login", notice }
      )
    )
  }, [])
  const signedIn = (token: string) => {
    saveToken(token)
    const page = returnPage()
    // In place of the sign-in form, which going back would show again for nothing.
    if (page !== undefined) return location.replace(page)
    setScreen({ _tag: "Home", token })
  }
  const signedOut = (notice: string) => {
    forgetToken()
    setScreen({ _tag: "Login", notice })
  }
  // A call of a token already signed out (its watch, a read in flight) may be refused after the sign-out's
  // answer: its session ended already, and "You are signed out." stays what the form says.
  const expired = (token: string) => {
    if (savedToken() === token) signedOut(expiredNotice)
  }
  switch (screen._tag) {
    case "Starting":
      return <main><p>Loading…</p></main>
    case "Unreachable":
      return <main><h1>Home gateway</h1><Problem message={screen.message} /></main>
    case "Setup":
      return <SetupPage onSession={signedIn} />
    case "Login":
      return <LoginPage onSession={signedIn} {...(screen.notice === undefined ? {} : { notice: screen.notice })} />
    case "Home":
      return (
        <>
          <Header current="home" token={screen.token} onSignedOut={() => signedOut(signedOutNotice)} />
          <HomePage token={screen.token} onExpired={() => expired(screen.token)} />
        </>
      )
  }
}
