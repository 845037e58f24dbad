import { logout } from "../api/Api.ts"

/** The dashboard's pages, each at its own address with a bundle of its own. */
export type PageName = "home" | "tokens" | "migration"

const links: ReadonlyArray<{ readonly page: PageName; readonly href: string; readonly label: string }> = [
  { page: "home", href: "/", label: "Home" },
  { page: "tokens", href: "/tokens", label: "Tokens" },
  { page: "migration", href: "/migration", label: "Migration" }
]

/** The bar above every signed-in page: the pages, as links (so they can be bookmarked and reloaded), and sign-out. */
export const Header = (props: { readonly current: PageName; readonly token: string; readonly onSignedOut: () => void }) => (
  <header>
    <p class="brand">Home gateway</p>
    <nav aria-label="Pages">
      {links.map((link) => (
        <a key={link.page} href={link.href} aria-current={link.page === props.current ? "page" : undefined}>{link.label}</a>
      ))}
    </nav>
    <button type="button" onClick={() => void logout(props.token).then(props.onSignedOut)}>Sign out</button>
  </header>
)
