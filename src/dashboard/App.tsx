import { useEffect, useState } from "preact/hooks"
import { logout, setupNeeded } from "./Api.ts"
import { Problem } from "./Field.tsx"
import { HomePage } from "./HomePage.tsx"
import { LoginPage } from "./LoginPage.tsx"
import { MigrationPage } from "./MigrationPage.tsx"
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
  | { readonly _tag: "Migration"; readonly token: string }

/** Which page: setup on a gateway without users, then login, then the home while the tab has a session. */
export const App = () => {
  const [screen, setScreen] = useState<Screen>({ _tag: "Starting" })
  useEffect(() => {
    const token = savedToken()
    if (token !== undefined) return setScreen({ _tag: "Home", token })
    void setupNeeded().then((answer) =>
      setScreen(!answer.ok ? { _tag: "Unreachable", message: answer.message } : answer.value ? { _tag: "Setup" } : { _tag: "Login" })
    )
  }, [])
  const signedIn = (token: string) => {
    saveToken(token)
    setScreen({ _tag: "Home", token })
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
    case "Tokens":
    case "Migration": {
      const { token } = screen
      const expired = () => signedOut("Your session has ended: sign in again.")
      const go = (page: "Home" | "Tokens" | "Migration") => () => setScreen({ _tag: page, token })
      return (
        <>
          <header>
            <p class="brand">Home gateway</p>
            <nav aria-label="Pages">
              <button type="button" aria-current={screen._tag === "Home" ? "page" : undefined} onClick={go("Home")}>Home</button>
              <button type="button" aria-current={screen._tag === "Tokens" ? "page" : undefined} onClick={go("Tokens")}>Tokens</button>
              <button type="button" aria-current={screen._tag === "Migration" ? "page" : undefined} onClick={go("Migration")}>Migration</button>
            </nav>
            <button type="button" onClick={() => void logout(token).then(() => signedOut("You are signed out."))}>Sign out</button>
          </header>
          {screen._tag === "Home"
            ? <HomePage token={token} onExpired={expired} />
            : screen._tag === "Tokens"
            ? <TokensPage token={token} onExpired={expired} />
            : <MigrationPage token={token} onExpired={expired} />}
        </>
      )
    }
  }
}
