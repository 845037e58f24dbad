/**
 * What the gateway says of the API the client speaks when it deprecates it (`--deprecate-vocabulary-a`):
 * the headers of its answers, `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and a `Link` to the guide.
 */
export interface DeprecationNotice {
  /** `Deprecation` as sent: `@` and seconds since the epoch. */
  readonly deprecation: string
  /** `Sunset` as sent (an HTTP date), if the gateway gave one: when the API goes away. */
  readonly sunset: string | undefined
  /** The guide's URL, from `Link`. */
  readonly link: string | undefined
  /** The notice in a sentence, as the default logs it. */
  readonly message: string
}

/** The notice an answer's headers give, if they give one; `link` resolved against the gateway's URL. */
export const deprecationIn = (headers: Readonly<Record<string, string | undefined>>, base: string): DeprecationNotice | undefined => {
  const deprecation = headers.deprecation
  if (deprecation === undefined) return undefined
  const sunset = headers.sunset
  const target = /<([^>]*)>/.exec(headers.link ?? "")?.[1]
  const link = target === undefined ? undefined : new URL(target, base).toString()
  const message = `home-gateway client: the gateway deprecates the vocabulary this client speaks` +
    `${sunset === undefined ? "" : `, which goes away on ${sunset}`}${link === undefined ? "" : `; see ${link}`}`
  return { deprecation, sunset, link, message }
}

/** Tells `tell` the first notice only: an app hears of the deprecation once, not with every answer. */
export const once = (tell: (notice: DeprecationNotice) => void) => {
  let told = false
  return (notice: DeprecationNotice): void => {
    if (!told) tell(notice)
    told = true
  }
}
