import { faturamento } from '@plac/shared/contracts';
import { message } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { useState } from 'react';
import { ConfirmSimNao } from '../../components/ConfirmSimNao';
import { callApi } from '../../lib/api';
import { emSegundoPlano, gerarRelatorio } from '../../lib/relatorio';
import { clienteIdDaFatura, mesDaFatura, periodo, type FaturaResumo } from './model';

/**
 * The invoice's reports (spec 2 sections 2.9 and 7): the consumption report of the invoice's month
 * and the detail ZIP (detalhamento_fatura.zip). Both are built by the server and run in the
 * background: the banner 'Processando relatório de consumo' (client and elapsed time) shows while
 * they build, whatever page the user goes to; a failure shows 'Erro ao gerar relatório de consumo'.
 * The consumption report asks first, as on consumo-cliente (it may take a few minutes).
 */
export function RelatoriosFaturaAcoes({ fatura }: { fatura: FaturaResumo }) {
  const cliente = { id: clienteIdDaFatura(fatura.id), razaoSocial: fatura.cliente.razaoSocial };
  const rotulo = `${periodo(fatura)} de ${fatura.cliente.razaoSocial}`;
  const [confirmar, setConfirmar] = useState<typeof cliente | null>(null);
  return (
    <>
      <Button
        type="button"
        icon="pi pi-chart-bar"
        rounded
        text
        aria-label={`Relatório de consumo ${rotulo}`}
        tooltip="Relatório de consumo"
        tooltipOptions={{ position: 'top' }}
        onClick={() => setConfirmar(cliente)}
      />
      <ConfirmSimNao
        target={confirmar}
        message={message('relatorioConsumoConfirmacao')}
        onConfirm={(c) => {
          setConfirmar(null);
          void gerarRelatorio(c, undefined, mesDaFatura(fatura));
        }}
        onClose={() => setConfirmar(null)}
      />
      <Button
        type="button"
        icon="pi pi-file-export"
        rounded
        text
        aria-label={`Detalhamento (ZIP) ${rotulo}`}
        tooltip="Detalhamento (ZIP)"
        tooltipOptions={{ position: 'top' }}
        onClick={() => void emSegundoPlano(cliente, () => callApi(faturamento.detalhamentoFatura, { params: { idConsumo: fatura.id }, query: {}, notify: false }))}
      />
    </>
  );
}
