/**
 * The session token of this tab: kept in `sessionStorage`, so it lives as long as the tab and is not
 * shared with other tabs or kept after the browser closes (docs/dashboard.md).
 */

const key = "gateway.session"

export const savedToken = (): string | undefined => sessionStorage.getItem(key) ?? undefined

export const saveToken = (token: string): void => sessionStorage.setItem(key, token)

export const forgetToken = (): void => sessionStorage.removeItem(key)
