import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from './errors';
import { useServerFieldErrors, withoutFields } from './fieldErrors';

const failure = () =>
  new ApiError({ status: 422, message: 'x', fieldErrors: { email: ['E-mail inválido.'], cpf: ['CPF inválido.'] } });

describe('server field messages of a failed save', () => {
  it('drops a field once it changes, keeps the others, and shows all again for a new failure', () => {
    const first = failure();
    const { result, rerender } = renderHook(({ error }) => useServerFieldErrors(error), { initialProps: { error: first as ApiError | null } });
    expect(result.current.error?.fieldErrors).toEqual({ email: ['E-mail inválido.'], cpf: ['CPF inválido.'] });

    act(() => result.current.clear('email'));
    expect(result.current.error?.fieldErrors).toEqual({ cpf: ['CPF inválido.'] });
    expect(result.current.error?.message).toBe('x');

    const second = failure();
    rerender({ error: second });
    expect(result.current.error?.fieldErrors).toEqual({ email: ['E-mail inválido.'], cpf: ['CPF inválido.'] });

    rerender({ error: null });
    expect(result.current.error).toBeNull();
  });

  it('gives the same error back when nothing is dropped', () => {
    const error = failure();
    expect(withoutFields(error, new Set())).toBe(error);
    expect(withoutFields(null, new Set(['email']))).toBeNull();
  });
});
