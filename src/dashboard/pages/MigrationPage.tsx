import { TranslatedRequest } from "../components/TranslatedRequest.tsx"
import { VocabularyAUsers } from "../components/VocabularyAUsers.tsx"
import type { PageProps } from "./SignedInPage.tsx"

/**
 * Moving from vocabulary A to B (docs/migrating-a-to-b.md): a request typed in A beside its B
 * equivalent and both live answers, and who still calls A.
 */
export const MigrationPage = (props: PageProps) => (
  <main>
    <h1>Migration</h1>
    <p>
      Vocabulary B says everything vocabulary A says, on the same home. Type a request in A to see it in B, send
      both to compare their answers, and see which tokens still call A.
    </p>
    <TranslatedRequest token={props.token} onExpired={props.onExpired} />
    <VocabularyAUsers token={props.token} onExpired={props.onExpired} />
  </main>
)
