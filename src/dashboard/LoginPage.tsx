import { useState } from "preact/hooks"
import { login } from "./Api.ts"
import { Field, Problem } from "./Field.tsx"

/** Sign in with a gateway user's name and password. */
export const LoginPage = (props: { readonly onSession: (token: string) => void; readonly notice?: string }) => {
  const [username, setUsername] = useState("")
  const [password, setPassword] = useState("")
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const submit = async (event: SubmitEvent) => {
    event.preventDefault()
    setBusy(true)
    const answer = await login(username, password)
    setBusy(false)
    if (answer.ok) props.onSession(answer.value)
    else setProblem(answer.message)
  }
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
