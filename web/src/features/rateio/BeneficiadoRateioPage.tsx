import '../../components/page-layout.css';
import { combineQueries, ListPage } from '../../components/ListPage';
import { useQueryClient } from '@tanstack/react-query';
import { routePath } from '@plac/shared/access';
import { rateio } from '@plac/shared/contracts';
import { SITUACAO_GRUPO_RATEIO_LABEL } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ConfirmSimNao } from '../../components/ConfirmSimNao';
import { apiQueryKey, callApi, useApiMutation, useApiQuery } from '../../lib/api';
import { toast } from '../../lib/toast';
import { formatMonth } from '@plac/shared/domain';
import { convenioTexto, periodoDias, type Beneficiado, type GrupoResumo } from './model';

/**
 * beneficiado-rateio (spec 3, 2.3): a dropdown of the sharing groups, the chosen group's validity
 * (disabled) and its beneficiaries (sortable, 10 a page); edit (hidden for a deactivated group), new
 * group (refused while a draft exists), remove the draft (after the spec's confirmation) and banks.
 */
export default function BeneficiadoRateioPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const lista = useApiQuery(rateio.listGrupos, {}, { refetchOnMount: 'always' });
  const [escolhido, setEscolhido] = useState<string | null>(null);
  const grupos = lista.data ?? [];
  const padrao = grupos.find((g) => g.situacao === 'VIGENTE') ?? grupos[0];
  const id = escolhido && grupos.some((g) => g.id === escolhido) ? escolhido : (padrao?.id ?? null);
  const selecionado = grupos.find((g) => g.id === id) ?? null;
  const grupo = useApiQuery(rateio.getGrupo, { params: { id: id ?? '' } }, { enabled: id !== null, refetchOnMount: 'always' });
  const remover = useApiMutation(rateio.removeElaboracao);
  const [confirmar, setConfirmar] = useState<GrupoResumo | null>(null);

  async function novo() {
    const [existe] = await callApi(rateio.verificarElaboracao, {});
    if (existe) {
      toast.warn(MESSAGES.grupoRateioEmElaboracao);
      return;
    }
    navigate(routePath('beneficiado-rateio-form'));
  }

  async function removerDraft() {
    setConfirmar(null);
    try {
      const [, texto] = await remover.mutateAsync({});
      toast.success(texto);
    } catch {
      return;
    }
    setEscolhido(null);
    void queryClient.invalidateQueries({ queryKey: apiQueryKey(rateio.listGrupos) });
  }

  const label = (g: GrupoResumo) => `${g.descricao} (${SITUACAO_GRUPO_RATEIO_LABEL[g.situacao]})`;

  const actions = (
    <div className="page-actions">
      {selecionado && selecionado.situacao !== 'DESATIVADO' && (
        <Button type="button" label="Editar" icon="pi pi-pencil" onClick={() => navigate(routePath('beneficiado-rateio-edit'), { state: { id: selecionado.id } })} />
      )}
      <Button type="button" label="Novo Grupo" icon="pi pi-plus" onClick={() => void novo()} />
      {selecionado?.situacao === 'ELABORACAO' && (
        <Button type="button" label="Remover Grupo em Elaboração" icon="pi pi-trash" severity="danger" outlined onClick={() => setConfirmar(selecionado)} />
      )}
      <Button type="button" label="Bancos" icon="pi pi-building" severity="secondary" outlined onClick={() => navigate(routePath('beneficiado-rateio-bancos'))} />
    </div>
  );

  // The group picked is the list's query (no Pesquisar); its validity shows beside it.
  const filters = (
    <div className="page-panel">
      <div className="page-grid">
        <div className="page-field">
          <label htmlFor="grupo-rateio">Grupo de Rateio</label>
          <Dropdown
            inputId="grupo-rateio"
            value={id}
            options={grupos.map((g) => ({ label: label(g), value: g.id }))}
            onChange={(e) => setEscolhido(e.value as string)}
            placeholder={lista.isFetching ? 'Carregando…' : MESSAGES.nenhumRegistro}
          />
        </div>
        <div className="page-field">
          <label htmlFor="vigencia-inicial">Vigência inicial</label>
          <InputText id="vigencia-inicial" value={selecionado ? formatMonth(selecionado.dtVigenciaInicial) : ''} disabled />
        </div>
        <div className="page-field">
          <label htmlFor="vigencia-final">Vigência final</label>
          <InputText id="vigencia-final" value={selecionado?.dtVigenciaFinal ? formatMonth(selecionado.dtVigenciaFinal) : ''} disabled />
        </div>
      </div>
    </div>
  );

  return (
    <>
      <ListPage
        title="Rateio"
        headerActions={actions}
        filters={filters}
        label="Beneficiados"
        rows={grupo.data?.beneficiados}
        dataKey="idBeneficiado"
        // The groups' list, then the chosen group: a failure of either is the list's (never an empty group).
        query={combineQueries(lista, id !== null && grupo)}
        table={{ removableSort: true }}
      >
        <Column field="nomeParticipante" header="Beneficiado" sortable />
        <Column field="vigenciaInicial" header="Vigência" sortable body={(b: Beneficiado) => periodoDias(b.vigenciaInicial, b.vigenciaFinal)} />
        <Column field="percentualRateio" header="Percentual" sortable body={(b: Beneficiado) => `${b.percentualRateio}%`} />
        <Column header="Convênio" body={(b: Beneficiado) => convenioTexto(b.convenioAtivo)} />
      </ListPage>
      <ConfirmSimNao target={confirmar} message={MESSAGES.confirmarExclusaoGrupoRateio} onConfirm={() => void removerDraft()} onClose={() => setConfirmar(null)} danger />
    </>
  );
}
