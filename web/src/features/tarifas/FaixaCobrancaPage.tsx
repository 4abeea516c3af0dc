import '../../components/page-layout.css';
import { ListPage, moneyColumn } from '../../components/ListPage';
import './tarifas.css';
import { routePath } from '@plac/shared/access';
import { tarifas } from '@plac/shared/contracts';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { useNavigate } from 'react-router-dom';
import { useApiQuery } from '../../lib/api';
import { periodo, TIPO_LABEL, type Versao } from './model';

/**
 * faixa-cobranca (consulta/faixaCobranca): every version — the draft, the current one and the
 * history, newest first — with its band group, tariff group, validity and subscription; each opens
 * the detailed view. 25 a page (spec 3, 9).
 */
export default function FaixaCobrancaPage() {
  const navigate = useNavigate();
  const query = useApiQuery(tarifas.getTarifacao, {}, { refetchOnMount: 'always' });
  const t = query.data;
  const versoes: Versao[] = t ? [...(t.elaboracao ? [t.elaboracao] : []), ...(t.vigente ? [t.vigente] : []), ...t.historico] : [];
  const ver = () => navigate(routePath('faixa-cobranca-view'));

  return (
    <>
      <ListPage
        title="Faixas de Cobrança"
        headerActions={t?.novoPermitido && <Button type="button" label="Nova Faixa de Cobrança" icon="pi pi-plus" onClick={() => navigate(routePath('faixa-cobranca-form'))} />}
        label="Faixas de Cobrança"
        rows={versoes}
        dataKey="grupoTarifa.id"
        query={query}
        paging={{ kind: 'local', rows: 25 }}
      >
        <Column header="Situação" body={(v: Versao) => TIPO_LABEL[v.tipo]} />
        <Column header="Grupo Faixa" body={(v: Versao) => v.grupoFaixa.descricao} />
        <Column header="Faixas" body={(v: Versao) => v.grupoFaixa.faixas.length} />
        <Column header="Grupo Tarifa" body={(v: Versao) => v.grupoTarifa.descricao} />
        <Column header="Vigência" body={(v: Versao) => periodo(v.grupoTarifa.dtVigenciaInicial, v.grupoTarifa.dtVigenciaFinal)} />
        <Column header="Assinatura mínima" {...moneyColumn((v: Versao) => v.grupoTarifa.assinatura)} />
        <Column
          header="Ações"
          body={(v: Versao) => (
            <Button type="button" icon="pi pi-eye" text aria-label={`Visualizar ${v.grupoTarifa.descricao}`} onClick={ver} />
          )}
        />
      </ListPage>
    </>
  );
}
