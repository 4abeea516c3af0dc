import { rateio } from '@plac/shared/contracts';
import { ListError } from '../../components/ListPage';
import { useApiQuery } from '../../lib/api';
import { GrupoRateioEditor } from './GrupoRateioEditor';

/**
 * beneficiado-rateio-form (spec 3, 2.5): a new sharing group, its beneficiaries prefilled from the
 * current group's, after the mandatory dialog of the current group's end month.
 */
export default function BeneficiadoRateioFormPage() {
  const vigente = useApiQuery(rateio.getVigente, {}, { refetchOnMount: 'always', retry: false, notify: false });
  if (vigente.isPending) return <p>Carregando…</p>;
  // No group in force (semGrupoRateioVigente) starts from scratch; any other failure (a 5xx, no answer)
  // is said with a retry, never taken for "there is no current group" (issue 28).
  if (vigente.isError && vigente.error.error !== 'semGrupoRateioVigente') return <ListError error={vigente.error} onRetry={() => void vigente.refetch()} />;
  return <GrupoRateioEditor modo="novo" vigente={vigente.data ?? null} />;
}
