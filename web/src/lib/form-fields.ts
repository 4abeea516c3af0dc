import { useState } from 'react';

/** What useServerFieldErrors gives a form: forgetting one field's server messages. */
interface ServerMessages {
  clear: (field: string) => void;
}

/**
 * A form's values, changed one field (`set`) or several (`change`, e.g. EnderecoFields') at a time.
 * A field's server messages (a duplicate CPF, ...) go as soon as the field changes: they spoke of
 * the value that was sent.
 */
export function useFormFields<F extends object>(initial: F | (() => F), server: ServerMessages) {
  const [form, setForm] = useState<F>(initial);
  const set = <K extends keyof F>(key: K, value: F[K]) => {
    server.clear(String(key));
    setForm((f) => ({ ...f, [key]: value }));
  };
  const change = (changes: Partial<F>) => {
    for (const key of Object.keys(changes)) server.clear(key);
    setForm((f) => ({ ...f, ...changes }));
  };
  return { form, setForm, set, change };
}

/**
 * A document number (CPF, CNPJ) checked when its field is left and again by the submission: `invalid`
 * says the last check failed, until the value changes (`changed`). An empty value is left to the
 * required check; `enabled` false (a number that can no longer change) is never checked.
 */
export function useValidityCheck(value: string, isValid: (value: string) => boolean, enabled = true) {
  const [invalid, setInvalid] = useState(false);
  return {
    invalid,
    /** Checks the value, shows the result and answers whether it may be sent. */
    check: (): boolean => {
      const bad = enabled && value.trim() !== '' && !isValid(value);
      setInvalid(bad);
      return !bad;
    },
    changed: () => {
      if (invalid) setInvalid(false);
    },
  };
}
