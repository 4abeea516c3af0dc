import { rateio } from '@plac/shared/contracts';
import { useApiQuery } from '../../lib/api';
import { GrupoRateioEditor } from './GrupoRateioEditor';

/**
 * beneficiado-rateio-form (spec 3, 2.5): a new sharing group, its beneficiaries prefilled from the
 * current group's, after the mandatory dialog of the current group's end month.
 */
export default function BeneficiadoRateioFormPage() {
  const vigente = useApiQuery(rateio.getVigente, {}, { refetchOnMount: 'always', retry: false, notify: false });
  if (vigente.isPending) return <p>Carregando…</p>;
  return <GrupoRateioEditor modo="novo" vigente={vigente.data ?? null} />;
}
