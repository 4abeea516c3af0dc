import { routePath } from '@plac/shared/access';
import { rateio } from '@plac/shared/contracts';
import { Navigate, useLocation } from 'react-router-dom';
import { useApiQuery } from '../../lib/api';
import { GrupoRateioEditor } from './GrupoRateioEditor';

/**
 * beneficiado-rateio-edit (spec 3, 2.4): the group chosen on the view (router state `{ id }`; without
 * it, the current group), loaded fresh so that a reload shows the same screen.
 */
export default function BeneficiadoRateioEditPage() {
  const id = (useLocation().state as { id?: string } | null)?.id ?? null;
  const porId = useApiQuery(rateio.getGrupo, { params: { id: id ?? '' } }, { enabled: id !== null, refetchOnMount: 'always' });
  const vigente = useApiQuery(rateio.getVigente, {}, { enabled: id === null, refetchOnMount: 'always' });
  const q = id ? porId : vigente;
  if (q.isError) return <Navigate to={routePath('beneficiado-rateio')} replace />;
  if (!q.data) return <p>Carregando…</p>;
  return <GrupoRateioEditor key={`${q.data.id}-${q.data.revisao}`} modo="edicao" grupo={q.data} />;
}
