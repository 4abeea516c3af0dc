import type { Principal } from '@plac/shared/access';
import { formatDate, resolverVencimentoDae, todayInBahia } from '@plac/shared/domain';
import { presignDownload } from '../platform/documents';
import { invalid } from '../platform/errors';
import { faturaVisivel } from './service';
import { recebimentosDaFatura, saldoDaFatura } from './recebimentos';
import { marcacaoDoDae, marcarDae, recontarFatura } from './store';
import * as daes from '../dae';
import type { DaeRecord } from '../dae';

/**
 * Issuing an invoice's DAE (spec 2 section 4 "DAE generation", section 7 "POST generate DAE";
 * docs/faturamento.md "DAE"): only for an open invoice the principal may see; the due date is the
 * default (the invoice's DAE's, else the 15th of the month after the reference month) unless a new one
 * is given, and a past default asks for one. Idempotent: the DAE is keyed by the invoice, its revision
 * and the due date, so the same request twice answers the same DAE (same barcode, same stored PDF),
 * with a fresh presigned URL each time (a URL lives minutes; the DAE does not change).
 */

export interface DaeEmitido {
  urlDAE: string;
  dtVencimento: string;
  numero: number;
  valor: number;
  codigoBarras: string;
  linhaDigitavel: string;
  complementar: boolean;
}

export async function emitirDae(faturaId: string, body: { dataVencimento?: string | undefined }, principal: Principal, agora: Date = new Date()): Promise<DaeEmitido> {
  const f = await faturaVisivel(faturaId, principal);
  if (f.situacao !== 'A') throw invalid('daeFaturaNaoAberta');
  const hoje = todayInBahia(agora);
  const v = resolverVencimentoDae({ mes: f.mes, vencimentoDoDae: f.dae?.dtVencimento, pedido: body.dataVencimento, hoje });
  if (!v.ok) {
    throw v.erro === 'daeVencimentoExpirado'
      ? invalid('daeVencimentoExpirado', { data: formatDate(v.padrao) })
      : invalid('daeVencimentoForaDoPrazo', { inicio: formatDate(v.inicio), fim: formatDate(v.fim) });
  }
  const dtVencimento = v.dtVencimento;
  const documento = documentoDaFatura(f);
  const existente = await daes.lerDaeDoDocumento(documento.documentoId, f.revisao, dtVencimento);
  const dae = existente ?? (await novoDae(f, documento, dtVencimento, principal, agora));
  // The invoice points at the DAE last asked for: an existing one (a retry after a failure, or a due date
  // asked again) is pointed at here, so the invoice never shows one DAE while the client holds another.
  if (existente && f.dae?.codigoBarras !== existente.codigoBarras) await marcarDae(f.faturaId, pontoDoDae(existente));
  return {
    urlDAE: await presignDownload(dae.chavePdf, 'application/pdf', { inline: true }),
    dtVencimento: dae.dtVencimento,
    numero: dae.numero,
    valor: dae.valor,
    codigoBarras: dae.codigoBarras,
    linhaDigitavel: dae.linhaDigitavel,
    complementar: dae.faturaCobrada !== undefined,
  };
}

type Fatura = Awaited<ReturnType<typeof faturaVisivel>>;

/**
 * What the invoice's DAE charges: its total; or, once a short payment was received (issue 37), the
 * balance still owed, as a complementary DAE of its own key (`<faturaId>/saldo-<n>`, n the receipts
 * recorded: each new balance its own DAE, the same balance and due date the same DAE). Its surcharge
 * rules are any DAE's: none until its due date, counted from it after (retorno/acrescimo.ts).
 */
function documentoDaFatura(f: Fatura): daes.DocumentoCobrado {
  const base = { origem: 'FATURA', revisao: f.revisao, clienteId: f.clienteId, razaoSocial: f.razaoSocial, cnpj: f.cnpj, mes: f.mes } as const;
  const { valorRecebido, saldoDevedor } = saldoDaFatura(f);
  if (valorRecebido === 0) return { ...base, documentoId: f.faturaId, rotulo: 'Fatura', valor: f.valorTotal };
  return { ...base, documentoId: `${f.faturaId}/saldo-${f.versaoRecebimentos ?? recebimentosDaFatura(f).length}`, faturaCobrada: f.faturaId, rotulo: 'Fatura (saldo devedor)', valor: saldoDevedor };
}

const pontoDoDae = (dae: DaeRecord) => ({ dtVencimento: dae.dtVencimento, codigoBarras: dae.codigoBarras, revisao: dae.revisao });

/**
 * A new DAE of the invoice (functions/dae/emissao.ts), the invoice pointed at it in the same transaction: a failure
 * leaves neither. One made meanwhile by another request under the same key is answered, and pointed at.
 */
async function novoDae(f: Fatura, documento: daes.DocumentoCobrado, dtVencimento: string, principal: Principal, agora: Date): Promise<DaeRecord> {
  const { criado, ...dae } = await daes.novoDae(documento, dtVencimento, principal.name, agora, (novo) => [marcacaoDoDae(f.faturaId, pontoDoDae(novo))]);
  if (!criado) await marcarDae(f.faturaId, pontoDoDae(dae));
  // The new due date moves the invoice among the open-invoice counters (marcarDae does it itself).
  else await recontarFatura(f.faturaId);
  return dae;
}

/** For the bank-return import (to come): the DAE a bank's barcode belongs to, by the barcode index. */
export async function daePorCodigoBarras(codigoBarras: string): Promise<DaeRecord | null> {
  if (!/^8\d{43}$/.test(codigoBarras)) return null;
  return daes.daePorCodigoBarras(codigoBarras);
}
