import { useState } from "preact/hooks"
import { login } from "../api/Api.ts"
import { Field, Problem } from "../components/Field.tsx"
import { useSessionForm } from "../state/SessionForm.ts"

/** Sign in with a gateway user's name and password. */
export const LoginPage = (props: { readonly onSession: (token: string) => void; readonly notice?: string }) => {
  const [username, setUsername] = useState("")
  const [password, setPassword] = useState("")
  const { problem, busy, submit } = useSessionForm(() => login(username, password), props.onSession)
  return (
    <main>
      <h1>Home gateway</h1>
      {props.notice === undefined ? null : <p role="status">{props.notice}</p>}
      <form onSubmit={submit} aria-labelledby="login-title">
        <h2 id="login-title">Sign in</h2>
        <Field id="username" label="Username" type="text" autocomplete="username" value={username} onInput={setUsername} />
        <Field id="password" label="Password" type="password" autocomplete="current-password" value={password} onInput={setPassword} />
        <Problem message={problem} />
        <button type="submit" disabled={busy}>Sign in</button>
      </form>
    </main>
  )
}
