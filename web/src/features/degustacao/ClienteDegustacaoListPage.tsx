import '../../components/page-layout.css';
import { ListPage } from '../../components/ListPage';
import { degustacao, type ResponseOf } from '@plac/shared/contracts';
import { formatCnpj } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { useState } from 'react';
import { ConfirmSimNao } from '../../components/ConfirmSimNao';
import { apiQueryKey, useApiMutation, useApiQuery } from '../../lib/api';
import { cursorPage, useCursorPages } from '../../lib/cursor-pages';
import { formatDateTime } from '../../lib/format';
import { toast } from '../../lib/toast';

/**
 * 'cliente-degustacao-list' (/app/cliente-degustacao, sefaz_admin): the trial clients, newest first,
 * a page at a time from the server (they grow with public sign-ups), with their status; 'Desativar' ends a client's trial access at once (its token stops on the next
 * request), 'Ativar' restores it and renews the e-mailed token's validity.
 */

type ClienteTeste = ResponseOf<typeof degustacao.listClientesTeste>['items'][number];
interface Mudanca {
  cliente: ClienteTeste;
  situacao: 'ATIVO' | 'DESATIVADO';
}

export default function ClienteDegustacaoListPage() {
  const queryClient = useQueryClient();
  const pages = useCursorPages(null, 25);
  const lista = useApiQuery(degustacao.listClientesTeste, { query: cursorPage(pages) }, { placeholderData: keepPreviousData });
  const alterar = useApiMutation(degustacao.updateClienteTeste);
  const [mudanca, setMudanca] = useState<Mudanca | null>(null);

  async function confirmar({ cliente, situacao }: Mudanca) {
    try {
      await alterar.mutateAsync({ params: { id: cliente.id }, body: { situacao } });
      toast.success(MESSAGES.operacaoRealizada);
    } catch {
      // The standard error toast says why.
    }
    await queryClient.invalidateQueries({ queryKey: apiQueryKey(degustacao.listClientesTeste) });
  }

  const acao = (c: ClienteTeste) =>
    c.situacao === 'DESATIVADO' ? (
      <Button
        type="button"
        label="Ativar"
        icon="pi pi-check"
        size="small"
        aria-label={`Ativar ${c.razao_social}`}
        onClick={() => setMudanca({ cliente: c, situacao: 'ATIVO' })}
      />
    ) : (
      <Button
        type="button"
        label="Desativar"
        icon="pi pi-ban"
        size="small"
        severity="danger"
        outlined
        aria-label={`Desativar ${c.razao_social}`}
        onClick={() => setMudanca({ cliente: c, situacao: 'DESATIVADO' })}
      />
    );

  return (
    <>
      <ListPage
        title="Clientes em Degustação"
        label="Clientes em Degustação"
        rows={lista.data?.items}
        dataKey="id"
        query={lista}
        paging={{ kind: 'cursor', pages, nextCursor: lista.data?.nextCursor, label: 'Paginação de clientes em degustação' }}
      >
        <Column field="razao_social" header="Razão Social" />
        <Column header="CNPJ" body={(c: ClienteTeste) => formatCnpj(c.cnpj)} />
        <Column field="email" header="E-mail" />
        <Column header="Cadastro" body={(c: ClienteTeste) => formatDateTime(c.created_at)} />
        <Column header="Status" body={(c: ClienteTeste) => degustacao.DEGUSTACAO_SITUACAO_LABELS[c.situacao]} />
        <Column header="Ações" body={acao} />
      </ListPage>
      <ConfirmSimNao
        target={mudanca}
        message={
          mudanca
            ? `Deseja ${mudanca.situacao === 'ATIVO' ? 'ativar' : 'desativar'} o acesso para testes de ${mudanca.cliente.razao_social}?`
            : ''
        }
        danger={mudanca?.situacao === 'DESATIVADO'}
        onConfirm={(m) => void confirmar(m)}
        onClose={() => setMudanca(null)}
      />
    </>
  );
}
