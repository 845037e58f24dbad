import { useEffect, useState } from "preact/hooks"
import { setupNeeded } from "./Api.ts"
import { Problem } from "./Field.tsx"
import { Header } from "./Header.tsx"
import { HomePage } from "./HomePage.tsx"
import { LoginPage } from "./LoginPage.tsx"
import { forgetToken, savedToken, saveToken } from "./Session.ts"
import { SetupPage } from "./SetupPage.tsx"
import { TokensPage } from "./TokensPage.tsx"

type Screen =
  | { readonly _tag: "Starting" }
  | { readonly _tag: "Unreachable"; readonly message: string }
  | { readonly _tag: "Setup" }
  | { readonly _tag: "Login"; readonly notice?: string }
  | { readonly _tag: "Home"; readonly token: string }
  | { readonly _tag: "Tokens"; readonly token: string }

/** The signed-in page the address names: `#tokens`, the tokens; anything else, the home. */
const addressed = (token: string): Screen => (location.hash === "#tokens" ? { _tag: "Tokens", token } : { _tag: "Home", token })

/** Which page: setup on a gateway without users, then login, then the page the address names while the tab has a session. */
export const App = () => {
  const [screen, setScreen] = useState<Screen>({ _tag: "Starting" })
  useEffect(() => {
    const followAddress = () => setScreen((current) => ("token" in current ? addressed(current.token) : current))
    addEventListener("hashchange", followAddress)
    return () => removeEventListener("hashchange", followAddress)
  }, [])
  useEffect(() => {
    const token = savedToken()
    if (token !== undefined) return setScreen(addressed(token))
    void setupNeeded().then((answer) =>
      setScreen(!answer.ok ? { _tag: "Unreachable", message: answer.message } : answer.value ? { _tag: "Setup" } : { _tag: "Login" })
    )
  }, [])
  const signedIn = (token: string) => {
    saveToken(token)
    setScreen(addressed(token))
  }
  const signedOut = (notice: string) => {
    forgetToken()
    setScreen({ _tag: "Login", notice })
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
    case "Tokens": {
      const { token } = screen
      const expired = () => signedOut("Your session has ended: sign in again.")
      return (
        <>
          <Header current={screen._tag === "Home" ? "home" : "tokens"} token={token} onSignedOut={() => signedOut("You are signed out.")} />
          {screen._tag === "Home" ? <HomePage token={token} onExpired={expired} /> : <TokensPage token={token} onExpired={expired} />}
        </>
      )
    }
  }
}
