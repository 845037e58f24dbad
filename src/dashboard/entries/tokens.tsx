import { showSignedIn } from "../pages/SignedInPage.tsx"
import { TokensPage } from "../pages/TokensPage.tsx"

// `/tokens`: the client's token operations and the channels to choose from, without the home's live view.
showSignedIn("tokens", TokensPage)
