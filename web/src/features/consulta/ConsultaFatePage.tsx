import '../../components/page-layout.css';
import './consulta.css';
import { consulta } from '@plac/shared/contracts';
import type { CessaoDaParcela } from '@plac/shared/contracts/fate-view';
import { formatCnpj } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { useState, type FormEvent } from 'react';
import { FormActions, LIMPAR } from '../../components/FormActions';
import { JsonTree } from '../../components/JsonTree';
import { EvidenciaRecebivel } from './EvidenciaRecebivel';
import { useApiMutation } from '../../lib/api';
import { formatDate, formatMoney } from '../../lib/format';
import { toast } from '../../lib/toast';

/**
 * consulta-fate (sefaz_admin): the free look-up (spec 3, 2.19, 5.8). An invoice type (NF-e or MDF-e)
 * and an access key, digits only while typing; the document found is shown as a JSON tree, and its
 * instalments as a table with each one's registered assignment (column 'Cessão', docs/cessao.md), and
 * the receivable's evidence with the key's timeline (docs/recebivel.md). Not charged: the authority
 * looks up its own data.
 */

const TIPOS = [
  { value: '1', label: 'NF-e' },
  { value: '2', label: 'MDF-e' },
] as const;
const CHAVE_DIGITOS = 44;

interface Parcela {
  numero: string;
  vencimento: string;
  valor: number;
  cessao?: CessaoDaParcela | null | undefined;
}

/** 'Cedida em DD/MM/AAAA a <CNPJ formatado>', or 'Não cedida'. */
function textoCessao(cessao: CessaoDaParcela | null | undefined): string {
  return cessao ? `Cedida em ${formatDate(cessao.dataCessao)} a ${formatCnpj(cessao.cnpjCessionario)}` : 'Não cedida';
}

export default function ConsultaFatePage() {
  const [tipo, setTipo] = useState<'1' | '2'>('1');
  const [chave, setChave] = useState('');
  const buscar = useApiMutation(consulta.consultaLivre);
  const resultado = buscar.data;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (chave === '') {
      toast.warn(message('campoObrigatorio', { field: 'Chave de Acesso' }));
      return;
    }
    try {
      await buscar.mutateAsync({ params: { tipo, chave } });
    } catch {
      // The standard error toast says why (not found, invalid key).
    }
  }

  function limpar() {
    setChave('');
    setTipo('1');
    buscar.reset();
  }

  return (
    <>
      <h1 className="app-page-title">Consulta Fat-e</h1>
      <form className="page-panel" aria-label="Consulta Fat-e" onSubmit={(e) => void onSubmit(e)} noValidate>
        <div className="page-grid">
          <div className="page-field">
            <label htmlFor="consulta-tipo">Tipo de Nota</label>
            <Dropdown inputId="consulta-tipo" options={[...TIPOS]} value={tipo} onChange={(e) => setTipo(e.value === '2' ? '2' : '1')} />
          </div>
          <div className="page-field page-field-wide">
            <label htmlFor="consulta-chave">Chave de Acesso</label>
            <InputText
              id="consulta-chave"
              inputMode="numeric"
              maxLength={CHAVE_DIGITOS}
              value={chave}
              onChange={(e) => setChave(e.target.value.replace(/\D/g, '').slice(0, CHAVE_DIGITOS))}
              autoComplete="off"
            />
          </div>
        </div>
        <FormActions submit={{ label: 'Pesquisar', icon: 'pi pi-search' }} loading={buscar.isPending} back={LIMPAR} onBack={limpar} />
      </form>
      {resultado && (
        <section className="page-panel" aria-labelledby="consulta-resultado">
          <h2 id="consulta-resultado" className="consulta-titulo">
            Resultado
          </h2>
          <EvidenciaRecebivel evidencia={resultado.evidencia} />
          <JsonTree key={resultado.chave} rootKey="fate" value={resultado} label="Resultado da consulta" open={['emitente', 'destinatario', 'duplicatas']} />
          <h3 id="consulta-parcelas" className="consulta-titulo consulta-subtitulo">
            Parcelas
          </h3>
          <DataTable value={resultado.duplicatas} dataKey="numero" emptyMessage="A Fat-e não tem duplicatas." stripedRows pt={{ table: { 'aria-labelledby': 'consulta-parcelas' } }}>
            <Column field="numero" header="Parcela" />
            <Column header="Vencimento" body={(d: Parcela) => formatDate(d.vencimento)} />
            <Column header="Valor" body={(d: Parcela) => formatMoney(d.valor)} />
            <Column header="Cessão" body={(d: Parcela) => textoCessao(d.cessao)} />
          </DataTable>
        </section>
      )}
    </>
  );
}
