import { MigrationPage } from "./MigrationPage.tsx"
import { showSignedIn } from "./SignedInPage.tsx"

// `/migration`: both vocabularies' codecs and the translation, without the client.
showSignedIn("migration", MigrationPage)
