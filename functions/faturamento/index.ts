/**
 * The billing context's front door. The repasse reads the paid invoices and the Pagamento de Serviços
 * rows and counters, and marks the invoices it distributed; the evidence archive reads a month's invoice
 * and records where it was archived. Other contexts import only this module (functions/platform/dependencies.test.ts).
 */
export {
  faturaDoPagamento,
  faturasPagasDoMes,
  marcarRepasse,
  valoresPorUf,
  type LinhaPagamento,
} from './service';
export { linhasPagamentoDoCliente, paginaDeLinhasPagamento, totaisPagamentosDoMes } from './store';
export { faturaDoMes, registrarArquivo, type FaturaArquivada } from './arquivo';
