import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { GlobalProgressBar } from './GlobalProgressBar';

function SlowQuery({ promise }: { promise: Promise<string> }) {
  useQuery({ queryKey: ['slow'], queryFn: () => promise });
  return null;
}

describe('GlobalProgressBar', () => {
  it('shows while a query runs and hides when it settles', async () => {
    let resolve!: (v: string) => void;
    const promise = new Promise<string>((r) => (resolve = r));
    render(
      <QueryClientProvider client={new QueryClient()}>
        <GlobalProgressBar />
        <SlowQuery promise={promise} />
      </QueryClientProvider>,
    );
    expect(await screen.findByRole('progressbar')).toBeTruthy();
    await act(async () => {
      resolve('ok');
      await promise;
    });
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
  });
});
