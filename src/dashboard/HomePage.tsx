import { useEffect, useState } from "preact/hooks"
import { Problem } from "./Field.tsx"
import { type ServiceSummary, services } from "./Api.ts"

/** The home as the signed-in user sees it: its services, by name. */
export const HomePage = (props: { readonly token: string; readonly onLogout: () => void; readonly onExpired: () => void }) => {
  const [listed, setListed] = useState<ReadonlyArray<ServiceSummary> | undefined>(undefined)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  useEffect(() => {
    void services(props.token).then((answer) => {
      if (answer.ok) setListed(answer.value)
      else if (answer.status === 401) props.onExpired()
      else setProblem(answer.message)
    })
  }, [props.token])
  return (
    <>
      <header>
        <p class="brand">Home gateway</p>
        <button type="button" onClick={props.onLogout}>Sign out</button>
      </header>
      <main>
        <h1>Your home</h1>
        <Problem message={problem} />
        {listed === undefined ? <p>Loading…</p> : (
          <ul class="services" aria-label="Services">
            {listed.map((service) => (
              <li key={service.id}>
                <strong>{service.name}</strong> <span class="muted">{service.channels === 1 ? "1 channel" : `${service.channels} channels`}</span>
              </li>
            ))}
          </ul>
        )}
      </main>
    </>
  )
}
