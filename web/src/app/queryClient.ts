import { QueryClient } from '@tanstack/react-query';

/**
 * Every failure is already shown to the user: a toast by the API client ('Serviço indisponível' for a
 * 5xx, a timeout or no network) and, on a list, its error state with 'Tentar novamente' (ListPage), where
 * the user asks again. Automatic retries would repeat the toast; refetching on window focus would do the
 * same on every tab switch. Both are off.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}
