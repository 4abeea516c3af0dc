import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { ProgressBar } from 'primereact/progressbar';

/** A global progress bar shows while requests run (any query or mutation). */
export function GlobalProgressBar() {
  const busy = useIsFetching() + useIsMutating() > 0;
  if (!busy) return null;
  return <ProgressBar mode="indeterminate" className="app-progress" aria-label="Carregando" />;
}
