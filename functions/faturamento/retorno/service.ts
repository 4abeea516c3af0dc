import { createHash } from 'node:crypto';
import type { Principal } from '@plac/shared/access';
import { formatDate, todayInBahia } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { HttpError, invalid } from '../../platform/errors';
import { codigoBarrasValido } from '../dae/febraban';
import { daePorCodigoBarras } from '../dae/service';
import { lerFatura, registrarPagamento, registrarPagamentoParcial } from '../store';
import { acrescimoDevido, taxasConfiguradas } from './acrescimo';
import { pagamentoPosteriorAoArquivo, recusaDaData, recusaDaVersao } from './conferencia';
import { lerRetorno, type Pagamento } from './layout';
import * as store from './store';
import type { ImportacaoRecord } from './store';

/**
 * The import of a bank's arrecadação return file (issue 14 item 4; docs/faturamento.md "Payments"):
 * the file is read whole and refused whole when it is malformed (a truncated or altered file, whose
 * trailer no longer matches, is never half imported), when its layout version is not one we read, or
 * when it is dated after today (conferencia.ts); then each G line is matched to its DAE by the barcode
 * and its invoice is marked paid (A → P, conditional) — a line dated after the file is reported and not
 * paid, a short payment is recorded on the invoice as partial (conditional, once per file and line) —
 * and the import is recorded under the file's SHA-256 with every line's outcome. Importing the same file
 * again answers the stored report and changes nothing; a crash mid-way is safe to repeat (a paid
 * invoice stays paid, counted JA_PAGA; a partial payment already recorded is not recorded again).
 */

/** At most this many payments per file (ours: the report is kept in one item). */
export const MAX_PAGAMENTOS = 1_000;
/** At most this many bytes (150-position records: about 1,000 lines with room to spare). */
export const MAX_BYTES = 200_000;

type Linha = ImportacaoRecord['linhas'][number];

/**
 * Who settles a DAE that is not an invoice's: a prepaid reservation's (functions/prepago/pagamento.ts),
 * wired in by the handler, so that billing does not import the prepaid context (which the metering,
 * read by billing, imports).
 */
export interface QuitacaoReserva {
  registrarPagamentoDae(documentoId: string, p: { codigoBarras: string; dataPagamento: string }): Promise<'paga' | 'jaPaga' | 'naoEncontrada'>;
  razaoSocialDaReserva(documentoId: string): Promise<string>;
}

async function conciliar(p: Pagamento, dataRetornoBanco: string, importacaoId: string, prepago: QuitacaoReserva | undefined): Promise<Linha> {
  const base = { linha: p.linha, codigoBarras: p.codigoBarras, dataPagamento: p.dataPagamento, valorRecebido: p.valorRecebido };
  if (pagamentoPosteriorAoArquivo(p, { dataGeracao: dataRetornoBanco })) {
    return { ...base, situacao: 'INCONSISTENTE', motivo: message('retornoPagamentoPosteriorAoArquivo', { pagamento: formatDate(p.dataPagamento), arquivo: formatDate(dataRetornoBanco) }) };
  }
  if (!codigoBarrasValido(p.codigoBarras)) return { ...base, situacao: 'INCONSISTENTE', motivo: 'Código de barras com dígito verificador inválido.' };
  const dae = await daePorCodigoBarras(p.codigoBarras);
  if (!dae) return { ...base, situacao: 'NAO_ENCONTRADA', motivo: 'Nenhum DAE emitido com este código de barras.' };
  if (dae.origem === 'PREPAGO') {
    if (!prepago) throw new Error('a prepaid DAE, and no prepaid settlement wired in');
    return conciliarReserva(p, dae, base, prepago);
  }
  const fatura = await lerFatura(dae.faturaId);
  const alvo = { ...base, faturaId: dae.faturaId, cliente: fatura?.razaoSocial ?? '' };
  if (!fatura) return { ...alvo, situacao: 'NAO_ENCONTRADA', motivo: 'A fatura do DAE não existe mais.' };
  if (fatura.situacao === 'P') {
    const mesmo = fatura.pagamento?.codigoBarras === p.codigoBarras;
    return { ...alvo, situacao: 'JA_PAGA', motivo: mesmo ? 'Pagamento já registrado por este DAE.' : 'A fatura já estava paga por outro DAE: verifique a duplicidade.' };
  }
  const devido = acrescimoDevido(dae.valor, dae.dtVencimento, p.dataPagamento, taxasConfiguradas());
  if (p.valorRecebido < dae.valor + devido) {
    const motivo = pagoAMenor(dae.valor, devido);
    if (p.valorRecebido <= 0) return { ...alvo, situacao: 'INCONSISTENTE', motivo };
    // A short payment: the invoice stays open, the amount received is recorded on it as partial.
    const r = await registrarPagamentoParcial(dae.faturaId, dae.revisao, {
      codigoBarras: p.codigoBarras,
      dataPagamento: p.dataPagamento,
      dataRetornoBanco,
      valorPago: p.valorRecebido,
      valorDevido: dae.valor + devido,
      importacaoId,
      linha: p.linha,
    });
    if (r === 'registrado') return { ...alvo, situacao: 'INCONSISTENTE', motivo: `${motivo} ${message('retornoParcialRegistrado')}` };
    if (r === 'jaRegistrado') return { ...alvo, situacao: 'INCONSISTENTE', motivo: `${motivo} ${message('retornoParcialJaRegistrado')}` };
    if (r === 'jaPaga') return { ...alvo, situacao: 'JA_PAGA', motivo: 'A fatura já estava paga.' };
    return { ...alvo, situacao: 'INCONSISTENTE', motivo: `${motivo} A fatura foi recalculada depois da emissão deste DAE.` };
  }
  const valorAcrescimo = p.valorRecebido - dae.valor;
  const r = await registrarPagamento(dae.faturaId, dae.revisao, {
    codigoBarras: p.codigoBarras,
    dataPagamento: p.dataPagamento,
    dataRetornoBanco,
    valorPago: p.valorRecebido,
    valorAcrescimo,
    importacaoId,
  });
  if (r === 'paga') return { ...alvo, situacao: 'PAGA', valorAcrescimo };
  if (r === 'jaPaga') return { ...alvo, situacao: 'JA_PAGA', motivo: 'A fatura já estava paga.' };
  return { ...alvo, situacao: 'INCONSISTENTE', motivo: 'A fatura foi recalculada depois da emissão deste DAE.' };
}

/** The report's reason for a short payment: what was due, and the surcharge among it when late. */
function pagoAMenor(valor: number, acrescimo: number): string {
  return acrescimo > 0
    ? message('retornoPagoAMenorComAcrescimo', { devido: brl(valor + acrescimo), acrescimo: brl(acrescimo) })
    : message('retornoPagoAMenor', { devido: brl(valor) });
}

/** A prepaid reservation's DAE: paid in full (late-payment surcharge included), the account is credited once. */
async function conciliarReserva(p: Pagamento, dae: NonNullable<Awaited<ReturnType<typeof daePorCodigoBarras>>>, base: Pick<Linha, 'linha' | 'codigoBarras' | 'dataPagamento' | 'valorRecebido'>, prepago: QuitacaoReserva): Promise<Linha> {
  const alvo = { ...base, faturaId: dae.faturaId, cliente: await prepago.razaoSocialDaReserva(dae.faturaId) };
  const devido = acrescimoDevido(dae.valor, dae.dtVencimento, p.dataPagamento, taxasConfiguradas());
  if (p.valorRecebido < dae.valor + devido) return { ...alvo, situacao: 'INCONSISTENTE', motivo: pagoAMenor(dae.valor, devido) };
  const r = await prepago.registrarPagamentoDae(dae.faturaId, { codigoBarras: p.codigoBarras, dataPagamento: p.dataPagamento });
  if (r === 'paga') return { ...alvo, situacao: 'PAGA', valorAcrescimo: p.valorRecebido - dae.valor };
  if (r === 'jaPaga') return { ...alvo, situacao: 'JA_PAGA', motivo: 'O pagamento antecipado já estava pago.' };
  return { ...alvo, situacao: 'NAO_ENCONTRADA', motivo: 'A reserva do DAE não existe mais.' };
}

const brl = (centavos: number) => `R$ ${(centavos / 100).toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export interface Relatorio extends Omit<ImportacaoRecord, 'lista'> {
  /** true when this file had been imported before: the stored report, nothing changed. */
  jaImportado: boolean;
}

const relatorio = ({ lista: _lista, ...r }: ImportacaoRecord, jaImportado: boolean): Relatorio => ({ ...r, jaImportado });

export async function importar(nomeArquivo: string, conteudo: string, principal: Principal, prepago?: QuitacaoReserva, agora: Date = new Date()): Promise<Relatorio> {
  if (!/\.(ret|txt)$/i.test(nomeArquivo)) throw invalid('retornoExtensao');
  if (Buffer.byteLength(conteudo, 'utf8') > MAX_BYTES) throw invalid('retornoGrandeDemais');
  const importacaoId = createHash('sha256').update(conteudo.replace(/\r\n/g, '\n'), 'utf8').digest('hex');
  const anterior = await store.lerImportacao(importacaoId);
  if (anterior) return relatorio(anterior, true);

  const lido = lerRetorno(conteudo);
  // The version first: under another version the other records' positions may differ, and their
  // problems would only be noise.
  const versao = lido.cabecalho && recusaDaVersao(lido.cabecalho.versao);
  if (versao) throw invalid(versao.chave, versao.vars);
  if (lido.problemas.length > 0 || !lido.cabecalho || !lido.trailer) {
    const detalhe = lido.problemas.slice(0, 20).map((p) => (p.linha > 0 ? `Linha ${p.linha}: ${p.motivo}` : p.motivo));
    throw new HttpError(400, 'retornoInvalido', { arquivo: detalhe });
  }
  if (lido.pagamentos.length > MAX_PAGAMENTOS) throw invalid('retornoGrandeDemais');
  const futura = recusaDaData(lido.cabecalho, todayInBahia(agora));
  if (futura) throw invalid(futura.chave, futura.vars);

  const linhas: Linha[] = [];
  // One at a time: a file's payments may name the same invoice twice (the second is then JA_PAGA).
  for (const p of lido.pagamentos) linhas.push(await conciliar(p, lido.cabecalho.dataGeracao, importacaoId, prepago));
  const conta = (s: Linha['situacao']) => linhas.filter((l) => l.situacao === s).length;
  const record: ImportacaoRecord = {
    importacaoId,
    nomeArquivo: nomeArquivo.slice(0, 200),
    importadoEm: agora.toISOString(),
    importadoPor: principal.name,
    banco: lido.cabecalho.banco,
    nomeBanco: lido.cabecalho.nomeBanco,
    nsa: lido.cabecalho.nsa,
    dataGeracao: lido.cabecalho.dataGeracao,
    registros: lido.trailer.totalRegistros,
    valorTotal: lido.trailer.valorTotal,
    pagas: conta('PAGA'),
    jaPagas: conta('JA_PAGA'),
    naoEncontradas: conta('NAO_ENCONTRADA'),
    inconsistentes: conta('INCONSISTENTE'),
    linhas,
    lista: 'retornos',
  };
  // Two imports of the same file at once: the second finds the first's record and answers it.
  if (!(await store.registrarImportacao(record))) return relatorio((await store.lerImportacao(importacaoId))!, true);
  return relatorio(record, false);
}

export async function recentes() {
  return (await store.importacoesRecentes(50)).map((r) => relatorio(r, false));
}
