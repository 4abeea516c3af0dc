import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { dominio } from '@plac/shared/contracts';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../test/render';
import { apiQueryKey, useApiMutation, useApiQuery } from './index';

function wrapperWith(client: QueryClient) {
  return ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe('react-query hooks generated from contracts', () => {
  it('useApiQuery caches under [contract.id, input] and returns the parsed body', async () => {
    const fetchMock = vi.fn(async () => jsonResponse(200, [{ codigo: 2927408, nome: 'Salvador' }]));
    vi.stubGlobal('fetch', fetchMock);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const input = { params: { uf: 'BA', text: 'salv' } };
    const { result } = renderHook(() => useApiQuery(dominio.cidades, input), { wrapper: wrapperWith(client) });

    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toEqual([{ codigo: 2927408, nome: 'Salvador' }]);
    expect(client.getQueryData(['dominio.cidades', input])).toEqual(result.current.data);
    expect(apiQueryKey(dominio.cidades, input)).toEqual(['dominio.cidades', input]);
    expect((fetchMock.mock.calls[0] as unknown as [string])[0]).toBe('/api/v1/dominio/cidades/BA/salv');
  });

  it('useApiMutation rejects with an ApiError carrying the field errors', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse(422, { errors: { uf: ['UF inválida.'] } })));
    const client = new QueryClient();
    const { result } = renderHook(() => useApiMutation(dominio.cidades, { notify: false }), { wrapper: wrapperWith(client) });

    await act(async () => {
      await result.current.mutateAsync({ params: { uf: 'XX', text: 'abc' } }).catch(() => undefined);
    });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error?.status).toBe(422);
    expect(result.current.error?.fieldErrors).toEqual({ uf: ['UF inválida.'] });
  });
});
