import { MigrationPage } from "../pages/MigrationPage.tsx"
import { showSignedIn } from "../pages/SignedInPage.tsx"

// `/migration`: both vocabularies' codecs and the translation, without the client.
showSignedIn("migration", MigrationPage)
