import '../../components/page-layout.css';
import { ListTable } from '../../components/ListPage';
import './consentimento.css';
import { routePath } from '@plac/shared/access';
import { consentimento } from '@plac/shared/contracts';
import { formatCnpj, formatCnpjBase } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { useLocation, useNavigate } from 'react-router-dom';
import { useApiQuery } from '../../lib/api';
import { formatDate } from '../../lib/format';
import type { Detalhe, DetalheState } from './model';

/**
 * emissor-consentimento-detalhamento: one issuer's consent (spec 3, 2.18), the issuer passed as router
 * state from the list: the branches (company name, tax id, e-mail, UF, consent date, status, update
 * date) and the financial institutions (name, tax id, authorisation date, status, update date), and a
 * back arrow to the list. A client user sees only its own institutions (the server filters).
 */

type Filial = Detalhe['filiais'][number];
type Inst = Detalhe['instFinanceiras'][number];

export default function EmissorConsentimentoDetalhePage() {
  const navigate = useNavigate();
  const state = useLocation().state as DetalheState | null;
  const id = state?.emissor.id ?? '';
  const detalhe = useApiQuery(consentimento.detalharEmissor, { params: { cnpj: id } }, { enabled: id !== '' });
  const voltar = () => navigate(routePath('emissor-consentimento'));

  return (
    <>
      <div className="page-header consent-detalhe-header">
        <Button type="button" icon="pi pi-arrow-left" rounded text aria-label="Voltar para a lista de consentimentos" onClick={voltar} />
        <h1 className="app-page-title">Detalhamento do Consentimento</h1>
      </div>
      {!state ? (
        <p>{MESSAGES.nenhumRegistro}</p>
      ) : (
        <>
          <p className="consent-empresa">
            <strong>{state.emissor.razaoSocial}</strong> — CNPJ {formatCnpj(state.emissor.cnpj)}
            {detalhe.data && <> — {detalhe.data.emissor.situacao}</>}
          </p>
          <section className="page-panel" aria-labelledby="detalhe-filiais">
            <h2 id="detalhe-filiais">Filiais</h2>
            <ListTable
              label="Filiais do emissor"
              rows={detalhe.data?.filiais}
              dataKey="cnpj"
              query={detalhe}
              paging={{ kind: 'none' }}
            >
              <Column header="Razão Social" field="razaoSocial" />
              <Column header="CNPJ" body={(f: Filial) => formatCnpj(f.cnpj)} />
              <Column header="E-mail" field="email" />
              <Column header="UF" field="uf" />
              <Column header="Data do Consentimento" body={(f: Filial) => formatDate(f.createdAt)} />
              <Column header="Status" field="situacao" />
              <Column header="Data de Atualização" body={(f: Filial) => formatDate(f.updatedAt)} />
            </ListTable>
          </section>
          <section className="page-panel" aria-labelledby="detalhe-instituicoes">
            <h2 id="detalhe-instituicoes">Instituições Financeiras</h2>
            <ListTable
              label="Instituições financeiras do emissor"
              rows={detalhe.data?.instFinanceiras}
              dataKey="instituicaoFinanceira.cnpj"
              query={detalhe}
              paging={{ kind: 'none' }}
            >
              <Column header="Nome" body={(i: Inst) => i.instituicaoFinanceira.razaoSocial} />
              <Column header="CNPJ Base" body={(i: Inst) => formatCnpjBase(i.instituicaoFinanceira.cnpj)} />
              <Column header="Data de Autorização" body={(i: Inst) => formatDate(i.termoFaturaMensalDt ?? i.createdAt)} />
              <Column header="Status" field="situacao" />
              <Column header="Data de Atualização" body={(i: Inst) => formatDate(i.updatedAt)} />
            </ListTable>
          </section>
        </>
      )}
    </>
  );
}
