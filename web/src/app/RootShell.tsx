// Theme and layout CSS are imported here, in the lazily loaded shell, so they stay out of the entry.
import 'primereact/resources/themes/lara-light-green/theme.css';
import 'primereact/resources/primereact.min.css';
import 'primeicons/primeicons.css';
import './app.css';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { PrimeReactProvider } from 'primereact/api';
import { useEffect, useState } from 'react';
import { Outlet } from 'react-router-dom';
import { getSession, subscribeSession } from '../lib/session';
import { GlobalProgressBar } from './GlobalProgressBar';
import { PT_BR } from './primeLocale';
import { PASS_THROUGH } from './primePassThrough';
import { createQueryClient } from './queryClient';
import { ScrollToTop } from './ScrollToTop';
import { ToastHost } from './ToastHost';
import { TopBar } from './TopBar';

/** Drops every cached answer when the session ends, so the next user never sees the last one's data. */
function useClearCacheOnLogout(queryClient: QueryClient) {
  useEffect(
    () =>
      subscribeSession(() => {
        if (!getSession().user) queryClient.clear();
      }),
    [queryClient],
  );
}

/**
 * What every page shares, public or not: react-query, PrimeReact (pt-BR locale, green theme), toasts,
 * the progress bar, the top bar and the scroll reset. It is the root route's lazy component, which
 * keeps all of it out of the entry chunk.
 */
export default function RootShell() {
  const [queryClient] = useState(createQueryClient);
  useClearCacheOnLogout(queryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <PrimeReactProvider value={{ locale: PT_BR, pt: PASS_THROUGH }}>
        <ScrollToTop />
        <GlobalProgressBar />
        <ToastHost />
        <TopBar />
        <Outlet />
      </PrimeReactProvider>
    </QueryClientProvider>
  );
}
