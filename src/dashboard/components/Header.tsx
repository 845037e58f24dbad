import { useState } from "preact/hooks"
import { logout } from "../api/Api.ts"
import { Problem } from "./Field.tsx"

/** The dashboard's pages, each at its own address with a bundle of its own. */
export type PageName = "home" | "tokens" | "migration"

export const links: ReadonlyArray<{ readonly page: PageName; readonly href: string; readonly label: string }> = [
  { page: "home", href: "/", label: "Home" },
  { page: "tokens", href: "/tokens", label: "Tokens" },
  { page: "migration", href: "/migration", label: "Migration" }
]

/**
 * The bar above every signed-in page: the pages, as links (so they can be bookmarked and reloaded), and
 * sign-out. The session is forgotten only once the gateway has revoked its token: a sign-out that did
 * not reach it leaves the token working, so the page says so and stays signed in, to try again.
 */
export const Header = (props: { readonly current: PageName; readonly token: string; readonly onSignedOut: () => void }) => {
  const [signingOut, setSigningOut] = useState(false)
  const [failure, setFailure] = useState<string | undefined>(undefined)
  const signOut = async () => {
    setSigningOut(true)
    const answer = await logout(props.token)
    // A 401: the token works no more (revoked or expired elsewhere), so the session is over all the same.
    if (answer.ok || answer.status === 401) return props.onSignedOut()
    setFailure(`Signing out failed (${answer.message}): you are still signed in.`)
    setSigningOut(false)
  }
  return (
    <header>
      <p class="brand">Home gateway</p>
      <nav aria-label="Pages">
        {links.map((link) => (
          <a key={link.page} href={link.href} aria-current={link.page === props.current ? "page" : undefined}>{link.label}</a>
        ))}
      </nav>
      <button type="button" disabled={signingOut} onClick={() => void signOut()}>
        {failure === undefined ? "Sign out" : "Try signing out again"}
      </button>
      <Problem message={failure} />
    </header>
  )
}
