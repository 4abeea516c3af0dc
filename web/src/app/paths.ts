/** Public paths, and builders for the ones that take parameters. */
export const LOGIN_PATH = '/';
export const API_DOCS_PATH = '/api/docs';

/** The generic success-message page with its title and body. */
export function messagePath(title: string, body: string): string {
  return `/message?${new URLSearchParams({ title, body }).toString()}`;
}
