import { faturamento } from '@plac/shared/contracts';
import { message } from '@plac/shared/messages';
import { useState } from 'react';
import { ConfirmSimNao } from '../../components/ConfirmSimNao';
import { RowActions } from '../../components/RowActions';
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
      <RowActions
        bare
        actions={[
          { icon: 'pi pi-chart-bar', label: 'Relatório de consumo', ariaLabel: `Relatório de consumo ${rotulo}`, onClick: () => setConfirmar(cliente) },
          {
            icon: 'pi pi-file-export',
            label: 'Detalhamento (ZIP)',
            ariaLabel: `Detalhamento (ZIP) ${rotulo}`,
            onClick: () => void emSegundoPlano(cliente, () => callApi(faturamento.detalhamentoFatura, { params: { idConsumo: fatura.id }, query: {}, notify: false })),
          },
        ]}
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
    </>
  );
}
