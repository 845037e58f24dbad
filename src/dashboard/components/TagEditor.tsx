import { useState } from "preact/hooks"
import { Problem } from "./Field.tsx"

/**
 * The tags of a service or a channel, each with a button that removes it, and a field that adds one.
 * What the gateway refuses (a tag too long, a token without the `tag` right) is said beside it.
 */
export const TagEditor = (props: {
  readonly of: string
  readonly tags: ReadonlyArray<string>
  readonly onAdd: (tag: string) => Promise<string | undefined>
  readonly onRemove: (tag: string) => Promise<string | undefined>
}) => {
  const [text, setText] = useState("")
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const add = async (event: SubmitEvent) => {
    event.preventDefault()
    const tag = text.trim()
    if (tag === "") return
    const refused = await props.onAdd(tag)
    setProblem(refused)
    if (refused === undefined) setText("")
  }
  return (
    <span class="tags">
      {props.tags.map((tag) => (
        <span key={tag} class="tag">
          {tag}
          <button type="button" class="untag" aria-label={`Remove the tag ${tag} from ${props.of}`}
            onClick={() => void props.onRemove(tag).then(setProblem)}>×</button>
        </span>
      ))}
      <form class="add-tag" onSubmit={add}>
        <input type="text" value={text} aria-label={`A new tag for ${props.of}`} placeholder="tag"
          onInput={(event) => setText(event.currentTarget.value)} />
        <button type="submit" aria-label={`Add the tag to ${props.of}`}>+</button>
      </form>
      <Problem message={problem} />
    </span>
  )
}
