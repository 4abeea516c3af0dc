import { useEffect, useRef } from 'react';

/**
 * Registry of open dialogs, so that a forced logout (a token_ error closes open dialogs) can close
 * them without knowing where they live. A dialog registers its hide function while it is visible;
 * AppDialog does this for you.
 */
const openDialogs = new Set<() => void>();

export function closeAllDialogs(): void {
  for (const hide of [...openDialogs]) hide();
  openDialogs.clear();
}

/** How many dialogs are registered as open (for tests and diagnostics). */
export function openDialogCount(): number {
  return openDialogs.size;
}

/** Registers `hide` while `visible` is true. */
export function useRegisterDialog(visible: boolean, hide: () => void): void {
  // The latest hide without re-registering on every render.
  const hideRef = useRef(hide);
  useEffect(() => {
    hideRef.current = hide;
  });
  useEffect(() => {
    if (!visible) return;
    const entry = () => hideRef.current();
    openDialogs.add(entry);
    return () => {
      openDialogs.delete(entry);
    };
  }, [visible]);
}
