/**
 * Navigation for code outside components (logout, the API client's token handling). The router
 * registers its `navigate` at creation; tests register their memory router's.
 */
type Navigate = (to: string, options?: { replace?: boolean }) => void;

let current: Navigate | null = null;

export function setNavigator(navigate: Navigate): () => void {
  current = navigate;
  return () => {
    if (current === navigate) current = null;
  };
}

export function navigateTo(to: string, options?: { replace?: boolean }): void {
  if (current) current(to, options);
  // Without a router (should not happen in the app) a full page load still gets the user there.
  else window.location.assign(to);
}
