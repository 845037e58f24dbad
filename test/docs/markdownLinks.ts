/** Links and headings of a markdown document, as GitHub renders them. */

export interface MarkdownLink {
  readonly line: number
  readonly target: string
}

/** Every inline link `[text](target)` outside fenced code, with its line. */
export const linksOf = (markdown: string): ReadonlyArray<MarkdownLink> => {
  const links: Array<MarkdownLink> = []
  let fenced = false
  markdown.split("\n").forEach((text, index) => {
    if (text.trimStart().startsWith("```")) fenced = !fenced
    if (fenced) return
    for (const [, target = ""] of text.replaceAll(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)\)/g)) {
      links.push({ line: index + 1, target })
    }
  })
  return links
}

/** GitHub's anchor of a heading: lower case, punctuation (`§`, `.`, backticks…) left out, spaces as `-`. */
const slugOf = (heading: string): string =>
  heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-")

/** The anchors of a document's headings; a repeated heading's anchor gets `-1`, `-2`… as on GitHub. */
export const anchorsOf = (markdown: string): ReadonlySet<string> => {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  let fenced = false
  for (const line of markdown.split("\n")) {
    if (line.trimStart().startsWith("```")) fenced = !fenced
    const heading = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line)
    if (heading === null) continue
    const slug = slugOf(heading[1] ?? "")
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return anchors
}
