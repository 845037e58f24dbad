import { useState } from "preact/hooks"
import type { Answer } from "../api/Api.ts"

/**
 * A form that asks the gateway for a session (setup, login): while the request runs the form is busy,
 * and a refusal is kept to be shown in the gateway's words.
 */
export const useSessionForm = (ask: () => Promise<Answer<string>>, onSession: (token: string) => void) => {
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const submit = async (event: SubmitEvent) => {
    event.preventDefault()
    setBusy(true)
    const answer = await ask()
    setBusy(false)
    if (answer.ok) onSession(answer.value)
    else setProblem(answer.message)
  }
  return { problem, busy, submit }
}
