import { useCallback, useMemo, useState } from 'react';
import { ApiError } from './errors';

const NONE: ReadonlySet<string> = new Set();

/** The error without the messages of some fields (the same error when there is nothing to drop). */
export function withoutFields(error: ApiError | null | undefined, fields: ReadonlySet<string>): ApiError | null {
  if (!error) return null;
  if (!error.fieldErrors || fields.size === 0) return error;
  const kept = Object.fromEntries(Object.entries(error.fieldErrors).filter(([field]) => !fields.has(field)));
  return new ApiError({
    status: error.status,
    message: error.message,
    ...(error.error !== undefined ? { error: error.error } : {}),
    fieldErrors: kept,
  });
}

/**
 * The server's field messages of a failed save, as a form shows them beside its fields: a field's
 * messages (and its invalid mark) go away as soon as the user changes that field, since they spoke of
 * the old value. `clear(field)` is called from the form's change handler; a new failure shows all of
 * its messages again.
 */
export function useServerFieldErrors(error: ApiError | null | undefined): { error: ApiError | null; clear: (field: string) => void } {
  const [cleared, setCleared] = useState<{ of: ApiError | null | undefined; fields: ReadonlySet<string> }>({ of: null, fields: NONE });
  const fields = error && cleared.of === error ? cleared.fields : NONE;
  const clear = useCallback(
    (field: string) => {
      if (!error?.fieldErrors?.[field]) return;
      setCleared((prev) => {
        const before = prev.of === error ? prev.fields : NONE;
        return before.has(field) ? prev : { of: error, fields: new Set([...before, field]) };
      });
    },
    [error],
  );
  const shown = useMemo(() => withoutFields(error, fields), [error, fields]);
  return { error: shown, clear };
}
