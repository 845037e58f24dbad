import { useState } from "preact/hooks"
import { setup } from "../api/Api.ts"
import { Field, Problem } from "../components/Field.tsx"
import { useSessionForm } from "../state/SessionForm.ts"

/** The first run of a gateway started with `--no-default-admin`: the first administrator is created here. */
export const SetupPage = (props: { readonly onSession: (token: string) => void }) => {
  const [username, setUsername] = useState("")
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const { problem, busy, submit } = useSessionForm(() => setup({ username, email, password }), props.onSession)
  return (
    <main>
      <h1>Welcome to your home gateway</h1>
      <p>Nobody uses this gateway yet. Create its first administrator: you will be signed in as them.</p>
      <form onSubmit={submit} aria-labelledby="setup-title">
        <h2 id="setup-title">First administrator</h2>
        <Field id="username" label="Username" type="text" autocomplete="username" value={username} onInput={setUsername}
          hint="1 to 64 letters, digits, '.', '_', '-' or '@'" />
        <Field id="email" label="Email" type="email" autocomplete="email" value={email} onInput={setEmail} />
        <Field id="password" label="Password" type="password" autocomplete="new-password" value={password} onInput={setPassword}
          hint="8 characters at least" />
        <Problem message={problem} />
        <button type="submit" disabled={busy}>Create and sign in</button>
      </form>
    </main>
  )
}
