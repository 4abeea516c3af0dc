import '../../components/page-layout.css';
import { ListPage } from '../../components/ListPage';
import { useQueryClient } from '@tanstack/react-query';
import { routePath } from '@plac/shared/access';
import { rateio, type ResponseOf } from '@plac/shared/contracts';
import { foldText } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { InputMask } from 'primereact/inputmask';
import { InputText } from 'primereact/inputtext';
import { useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { AppDialog } from '../../components/AppDialog';
import { FormField } from '../../components/FormField';
import { DEFAULT_PAGE_SIZE, SearchPanel } from '../../components/listing';
import { useListSearch } from '../../components/list-search';
import { apiQueryKey, useApiMutation, useApiQuery } from '../../lib/api';
import { toast } from '../../lib/toast';

/**
 * beneficiado-rateio-bancos (spec 3, 2.6): the banks, searched by code or name, in a table of code,
 * name and ISPB with an edit action, and the dialog that registers or edits one (code: 3 digits;
 * ISPB: 8 digits, as the Central Bank publishes it). The list is seeded from the maintained list of
 * Brazilian banks; the search filters the loaded list (the whole list is about 500 banks).
 */

type Banco = ResponseOf<typeof rateio.listBancos>[number];

const vazio = { codigo: '', nome: '', ispb: '' };

export function filtrarBancos(bancos: readonly Banco[], termo: string): Banco[] {
  const t = foldText(termo);
  if (!t) return [...bancos];
  return bancos.filter((b) => b.codigo.startsWith(t) || foldText(b.nome).includes(t) || b.ispb.startsWith(t));
}

export default function BancosPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const list = useApiQuery(rateio.listBancos, {});
  const criar = useApiMutation(rateio.createBanco);
  const alterar = useApiMutation(rateio.updateBanco);
  // The search filters the loaded list: Pesquisar asks nothing again, the same term shows the same rows.
  const busca = useListSearch<string, string>({ empty: '', toSearch: (t) => t, first: (t) => t, perPage: DEFAULT_PAGE_SIZE });
  const { draft: termo, setDraft: setTermo } = busca;
  const filtro = busca.search ?? '';
  /** null: closed; 'novo' or the bank being edited. */
  const [dialogo, setDialogo] = useState<'novo' | Banco | null>(null);
  const [form, setForm] = useState(vazio);
  const [erros, setErros] = useState<Record<string, string[]>>({});

  const shown = filtrarBancos(list.data ?? [], filtro);
  const editando = dialogo !== null && dialogo !== 'novo';
  const mutation = editando ? alterar : criar;

  function abrir(b: Banco | 'novo') {
    criar.reset();
    alterar.reset();
    setErros({});
    setForm(b === 'novo' ? vazio : { ...b });
    setDialogo(b);
  }

  async function salvar(e: FormEvent) {
    e.preventDefault();
    const body = { codigo: form.codigo.trim(), nome: form.nome.trim(), ispb: form.ispb.trim() };
    const proprios: Record<string, string[]> = {};
    if (!/^\d{3}$/.test(body.codigo)) proprios.codigo = [MESSAGES.bancoCodigoInvalido];
    if (!body.nome) proprios.nome = ['O campo Nome é obrigatório.'];
    if (!/^\d{8}$/.test(body.ispb)) proprios.ispb = [MESSAGES.bancoIspbInvalido];
    setErros(proprios);
    if (Object.keys(proprios).length) return;
    let saved;
    try {
      saved = await mutation.mutateAsync({ body });
    } catch {
      return; // a toast and the field messages
    }
    toast.success(saved.message);
    setDialogo(null);
    void queryClient.invalidateQueries({ queryKey: apiQueryKey(rateio.listBancos) });
  }

  // The panel is the same element until its own value changes: the list's answers do not render it again.
  const pesquisar = busca.onSubmit();
  const filters = useMemo(() => (
    <SearchPanel label="Pesquisa de bancos" onSubmit={pesquisar} onClear={busca.onClear}>
      <div className="page-field">
        <label htmlFor="banco-busca">Código ou nome</label>
        <InputText id="banco-busca" value={termo} maxLength={100} onChange={(e) => setTermo(e.target.value)} />
      </div>
    </SearchPanel>
  ), [pesquisar, busca.onClear, termo, setTermo]);

  return (
    <>
      <ListPage
        title="Bancos"
        headerActions={
          <div className="page-actions">
            <Button type="button" label="Voltar" icon="pi pi-arrow-left" severity="secondary" outlined onClick={() => navigate(routePath('beneficiado-rateio'))} />
            <Button type="button" label="Novo Banco" icon="pi pi-plus" onClick={() => abrir('novo')} />
          </div>
        }
        filters={filters}
        label="Bancos"
        rows={shown}
        dataKey="codigo"
        query={list}
        emptyText={MESSAGES.nenhumBancoEncontrado}
        table={{ sortField: 'codigo', sortOrder: 1 }}
      >
        <Column field="codigo" header="Código" sortable />
        <Column field="nome" header="Nome" sortable />
        <Column field="ispb" header="ISPB" sortable />
        <Column
          header="Ações"
          body={(b: Banco) => <Button type="button" icon="pi pi-pencil" text aria-label={`Editar ${b.nome}`} onClick={() => abrir(b)} />}
        />
      </ListPage>
      <AppDialog header={editando ? 'Editar Banco' : 'Cadastrar Banco'} visible={dialogo !== null} onHide={() => setDialogo(null)} style={{ width: 'min(32rem, 95vw)' }}>
        <form onSubmit={salvar} noValidate>
          <FormField id="banco-codigo" label="Código" required field="codigo" error={mutation.error} messages={erros.codigo}>
            <InputMask
              id="banco-codigo"
              mask="999"
              autoClear={false}
              value={form.codigo}
              disabled={editando}
              aria-required
              aria-describedby="banco-codigo-error"
              onChange={(e) => setForm({ ...form, codigo: (e.target.value ?? '').replace(/\D/g, '') })}
            />
          </FormField>
          <FormField id="banco-nome" label="Nome" required field="nome" error={mutation.error} messages={erros.nome}>
            <InputText id="banco-nome" value={form.nome} maxLength={200} aria-required aria-describedby="banco-nome-error" onChange={(e) => setForm({ ...form, nome: e.target.value })} />
          </FormField>
          <FormField id="banco-ispb" label="ISPB" required field="ispb" error={mutation.error} messages={erros.ispb}>
            <InputMask
              id="banco-ispb"
              mask="99999999"
              autoClear={false}
              value={form.ispb}
              aria-required
              aria-describedby="banco-ispb-error"
              onChange={(e) => setForm({ ...form, ispb: (e.target.value ?? '').replace(/\D/g, '') })}
            />
          </FormField>
          <div className="page-actions">
            <Button type="button" label="Cancelar" severity="secondary" outlined onClick={() => setDialogo(null)} />
            <Button type="submit" label="Salvar" icon="pi pi-check" loading={mutation.isPending} />
          </div>
        </form>
      </AppDialog>
    </>
  );
}
