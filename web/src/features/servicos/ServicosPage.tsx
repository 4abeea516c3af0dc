import '../../components/page-layout.css';
import '../../components/instituicao.css';
import { useQueryClient } from '@tanstack/react-query';
import { servicos, type ResponseOf } from '@plac/shared/contracts';
import { MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { Tag } from 'primereact/tag';
import { useState } from 'react';
import { AppDialog } from '../../components/AppDialog';
import { ReorderList } from '../../components/ReorderList';
import { apiQueryKey, useApiMutation, useApiQuery } from '../../lib/api';
import { useRegisterDialog } from '../../lib/dialogs';
import { toast } from '../../lib/toast';
import { Loading } from '../../components/RecordStatus';

/**
 * consulta-servicos: the services in display order, dragged (or moved with each
 * one's buttons) into a new order that is saved after the confirmation (a move that ends in the same
 * order asks nothing); each one's edit dialog has the checkboxes Ativo and Exibir no Portal.
 */

export type Servico = ResponseOf<typeof servicos.allServicos>[number];

const flag = (on: boolean, label: string) => <Tag value={`${label}: ${on ? 'Sim' : 'Não'}`} severity={on ? 'success' : 'secondary'} />;

export default function ServicosPage() {
  const queryClient = useQueryClient();
  const list = useApiQuery(servicos.allServicos, {});
  const ordenar = useApiMutation(servicos.ordenarServicos);
  const update = useApiMutation(servicos.updateServico);
  /** The order being proposed (after a move), awaiting the confirmation. */
  const [proposta, setProposta] = useState<Servico[] | null>(null);
  const [editando, setEditando] = useState<Servico | null>(null);
  const [ativo, setAtivo] = useState(false);
  const [portal, setPortal] = useState(false);

  const shown = proposta ?? list.data ?? [];
  const refresh = () => queryClient.invalidateQueries({ queryKey: apiQueryKey(servicos.allServicos) });
  const cancelarOrdem = () => setProposta(null);
  useRegisterDialog(proposta !== null, cancelarOrdem);

  async function salvarOrdem() {
    if (!proposta) return;
    try {
      const saved = await ordenar.mutateAsync({ body: { lista: proposta.map((s) => s.idModuloServico) } });
      queryClient.setQueryData(apiQueryKey(servicos.allServicos, {}), saved);
      toast.success(MESSAGES.registroSalvo);
    } catch {
      // The reason is a toast; the list goes back to the saved order.
    }
    setProposta(null);
    void refresh();
  }

  function abrir(s: Servico) {
    setEditando(s);
    setAtivo(s.ativo);
    setPortal(s.portal);
  }

  async function salvarServico() {
    if (!editando) return;
    try {
      await update.mutateAsync({ body: { idModuloServico: editando.idModuloServico, ativo, portal } });
    } catch {
      return;
    }
    toast.success(MESSAGES.servicoAtualizado);
    setEditando(null);
    void refresh();
  }

  const item = (s: Servico) => (
    <div className="inst-servico-item" data-servico={s.idModuloServico}>
      <span>{s.descricao}</span>
      <span className="inst-servico-flags">
        {flag(s.ativo, 'Ativo')}
        {flag(s.portal, 'Portal')}
        <Button
          type="button"
          icon="pi pi-pencil"
          rounded
          text
          aria-label={`Editar ${s.descricao}`}
          tooltip="Editar"
          tooltipOptions={{ position: 'top' }}
          onClick={() => abrir(s)}
        />
      </span>
    </div>
  );

  return (
    <>
      <h1 className="app-page-title">Serviços</h1>
      <div className="page-panel inst-servicos">
        {list.isPending ? <Loading /> : (
          <ReorderList
            label="Ordem de exibição dos serviços"
            items={shown}
            keyOf={(s) => s.idModuloServico}
            nameOf={(s) => s.descricao}
            renderItem={item}
            onReorder={setProposta}
          />
        )}
      </div>

      <ConfirmDialog
        visible={proposta !== null}
        onHide={cancelarOrdem}
        header="Confirmação"
        message={MESSAGES.confirmaOrdemServicos}
        icon="pi pi-question-circle"
        acceptLabel="Sim"
        rejectLabel="Não"
        accept={() => void salvarOrdem()}
        reject={cancelarOrdem}
      />

      <AppDialog header="Editar Serviço" visible={editando !== null} onHide={() => setEditando(null)} style={{ width: 'min(30rem, 95vw)' }} modal>
        {editando && (
          <>
            <p>{editando.descricao}</p>
            <div className="page-options">
              <div className="page-option">
                <Checkbox inputId="servico-ativo" checked={ativo} onChange={(e) => setAtivo(e.checked === true)} />
                <label htmlFor="servico-ativo">Ativo</label>
              </div>
              <div className="page-option">
                <Checkbox inputId="servico-portal" checked={portal} onChange={(e) => setPortal(e.checked === true)} />
                <label htmlFor="servico-portal">Exibir no Portal</label>
              </div>
            </div>
            <div className="page-actions">
              <Button type="button" label="Salvar" icon="pi pi-check" loading={update.isPending} onClick={() => void salvarServico()} />
              <Button type="button" label="Cancelar" icon="pi pi-times" severity="secondary" outlined onClick={() => setEditando(null)} />
            </div>
          </>
        )}
      </AppDialog>
    </>
  );
}
