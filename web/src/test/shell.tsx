import { QueryClientProvider } from '@tanstack/react-query';
import { PrimeReactProvider } from 'primereact/api';
import { useState } from 'react';
import { Outlet } from 'react-router-dom';
import { PT_BR } from '../app/primeLocale';
import { createQueryClient } from '../app/queryClient';
import { ToastHost } from '../app/ToastHost';

/**
 * What the portal's shell gives every page, for the features' test kits: react-query (a client per
 * render), PrimeReact in pt-BR and the toasts, around the matched route. No route table and no guards
 * (those are tested with the real route table in test/render.tsx).
 */
export function PageShell() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <PrimeReactProvider value={{ locale: PT_BR }}>
        <ToastHost />
        <Outlet />
      </PrimeReactProvider>
    </QueryClientProvider>
  );
}
