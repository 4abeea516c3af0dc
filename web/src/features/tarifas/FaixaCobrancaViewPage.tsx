import '../../components/page-layout.css';
import './tarifas.css';
import { useQueryClient } from '@tanstack/react-query';
import { routePath } from '@plac/shared/access';
import { tarifas } from '@plac/shared/contracts';
import { MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { TabPanel, TabView } from 'primereact/tabview';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ConfirmSimNao } from '../../components/ConfirmSimNao';
import { apiQueryKey, useApiMutation, useApiQuery } from '../../lib/api';
import { toast } from '../../lib/toast';
import { periodo, type Versao } from './model';
import { NovaTarifa } from './NovaTarifa';
import { TarifaTabela, VersaoResumo } from './TarifaTabela';
import { Loading } from '../../components/RecordStatus';

/**
 * faixa-cobranca-view (spec 3, 2.1): the current version (Vigentes), the history (Histórico, rows
 * expanding into their audit and tariff table) and the draft (Elaboração) with its edit and remove
 * actions; a new tariff on the current bands from a start month (with cancel); a new group when the
 * current one has no end.
 */
export default function FaixaCobrancaViewPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const query = useApiQuery(tarifas.getTarifacao, {}, { refetchOnMount: 'always' });
  const remove = useApiMutation(tarifas.removeElaboracao, { notify: false });
  const [removendo, setRemovendo] = useState<Versao | null>(null);
  const [abertos, setAbertos] = useState<ReadonlySet<string>>(new Set());
  const [aba, setAba] = useState(0);

  if (!query.data) {
    return (
      <>
        <h1 className="app-page-title">Faixas de Cobrança e Tarifação</h1>
        {query.isError ? (
          <p>{MESSAGES.buscaFalhou}</p>
        ) : <Loading />}
      </>
    );
  }
  const { vigente, elaboracao, historico, novoPermitido, mesAtual } = query.data;

  async function remover(v: Versao) {
    setRemovendo(null);
    try {
      const answer = await remove.mutateAsync({ params: { idGrupoTarifa: v.grupoTarifa.id } });
      toast.success(answer.message);
      // The Elaboração tab goes: back to Vigentes.
      setAba(0);
    } catch {
      toast.error(MESSAGES.grupoFaixaElaboracaoRemoverFalhou);
    }
    await queryClient.invalidateQueries({ queryKey: apiQueryKey(tarifas.getTarifacao) });
  }

  const alternar = (id: string) =>
    setAbertos((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <>
      <div className="page-header">
        <h1 className="app-page-title">Faixas de Cobrança e Tarifação</h1>
        <div className="page-actions">
          {novoPermitido && (
            <Button type="button" label="Nova Faixa de Cobrança" icon="pi pi-plus" onClick={() => navigate(routePath('faixa-cobranca-form'))} />
          )}
          <Button type="button" label="Voltar" icon="pi pi-arrow-left" severity="secondary" outlined onClick={() => navigate(routePath('faixa-cobranca'))} />
        </div>
      </div>
      <TabView activeIndex={aba} onTabChange={(e) => setAba(e.index)}>
        <TabPanel header="Vigentes">
          {vigente ? (
            <div className="page-panel">
              <VersaoResumo versao={vigente} />
              <TarifaTabela versao={vigente} caption="Tarifas vigentes" />
              {novoPermitido && <NovaTarifa vigente={vigente} mesAtual={mesAtual} />}
            </div>
          ) : (
            <p>{MESSAGES.semTarifacaoVigente}</p>
          )}
        </TabPanel>
        {historico.length > 0 && (
          <TabPanel header="Histórico">
            <ul className="tarifas-historico" aria-label="Histórico">
              {historico.map((h) => {
                const id = h.grupoTarifa.id;
                const aberto = abertos.has(id);
                return (
                  <li key={id} className="page-panel">
                    <Button
                      type="button"
                      text
                      icon={aberto ? 'pi pi-chevron-down' : 'pi pi-chevron-right'}
                      label={`${h.grupoFaixa.descricao} / ${h.grupoTarifa.descricao} — ${periodo(h.grupoTarifa.dtVigenciaInicial, h.grupoTarifa.dtVigenciaFinal)}`}
                      aria-expanded={aberto}
                      aria-controls={`historico-${id}`}
                      onClick={() => alternar(id)}
                    />
                    {aberto && (
                      <div id={`historico-${id}`}>
                        <VersaoResumo versao={h} />
                        <TarifaTabela versao={h} caption={`Tarifas de ${h.grupoTarifa.descricao}`} />
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
          </TabPanel>
        )}
        {elaboracao && (
          <TabPanel header="Elaboração">
            <div className="page-panel">
              <VersaoResumo versao={elaboracao} />
              <TarifaTabela versao={elaboracao} caption="Tarifas em elaboração" />
              <div className="page-actions">
                {!elaboracao.grupoFaixa.desativado && (
                  <Button type="button" label="Editar" icon="pi pi-pencil" onClick={() => navigate(routePath('faixa-cobranca-edit'))} />
                )}
                <Button type="button" label="Remover" icon="pi pi-trash" severity="danger" outlined onClick={() => setRemovendo(elaboracao)} loading={remove.isPending} />
              </div>
            </div>
          </TabPanel>
        )}
      </TabView>
      <ConfirmSimNao
        target={removendo}
        danger
        message="Deseja remover a tarifação em elaboração?"
        onConfirm={(v) => void remover(v)}
        onClose={() => setRemovendo(null)}
      />
    </>
  );
}
