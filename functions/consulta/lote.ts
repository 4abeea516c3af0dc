import Papa from 'papaparse';
import { formatDateForFile, formatDecimal, FATURAMENTO_TIPOS, isValidChaveAcesso, isValidCnpj, isValidCnpjBase, isValidCpf, parseBrDate, parseBRL, SERVICO } from '@plac/shared/domain';
import type { Centavos, TipoFaturamento } from '@plac/shared/domain';
import { LAYOUTS_LOTE, lerLote, loteRecusado, type LayoutLote } from '@plac/shared/domain/lote-csv';
import { message } from '@plac/shared/messages';
import { HttpError, invalid } from '../platform/errors';
import { exigirServico } from './chamador';
import { fatePorChave, registrarNaoEncontrada, type Pedido } from './por-chave';
import * as consultas from './service';

/**
 * The CSV batches of the portal (spec 3, 3.13, 5.4, 7.5). The file rule (header, separator, 50 lines,
 * repeats) is shared with the portal (`lerLote`); then every line is looked up like an API call —
 * charged when it finds data (once every line is answered), recorded when a key is not found — and
 * the answer is a CSV with the line's columns, SITUACAO, the data found and MENSAGEM. A line that
 * cannot be read is answered as such and charges nothing; a billing line over a year refuses the
 * whole file before anything runs. Cells that a spreadsheet would read as a formula are escaped
 * (papaparse `escapeFormulae`).
 */

type Linha = readonly string[];
interface Resultado {
  situacao: 'ENCONTRADA' | 'CANCELADA' | 'NAO_ENCONTRADA' | 'INVALIDA' | 'RECUSADA';
  dados?: readonly string[];
  mensagem?: string;
}

interface Lote {
  layout: LayoutLote;
  servico: number;
  colunas: readonly string[];
  /** A line's look-up; a line it cannot read gives INVALIDA. */
  consultar(p: Pedido, linha: Linha): Promise<Resultado>;
}

/** Lines looked up (and charged) at once: the look-ups of one batch share the function's connections. */
const EM_PARALELO = 8;

const reais = (centavos: number) => formatDecimal(centavos as Centavos).replace('.', ',');
const invalida = (mensagem: string): Resultado => ({ situacao: 'INVALIDA', mensagem });

/** DD/MM/AAAA (as spreadsheets write it) or AAAA-MM-DD. */
function dia(texto: string): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(texto)) return parseBrDate(`${texto.slice(8, 10)}/${texto.slice(5, 7)}/${texto.slice(0, 4)}`);
  return parseBrDate(texto);
}

/** '1.234,56', '1234,56' or '1234.56' to centavos. */
function valor(texto: string): number | null {
  return parseBRL(texto) ?? (/^\d+\.\d{1,2}$/.test(texto) ? Math.round(Number(texto) * 100) : null);
}

/** Dates in the CSVs as the screens ask for them (DD/MM/AAAA; date-times DD/MM/AAAA HH:mm:ss in Bahia), never ISO. */
const parcelas = (ds: readonly { numero: string; vencimento: string; valor: number }[]) =>
  ds.map((d) => `${d.numero} ${formatDateForFile(d.vencimento)} ${reais(d.valor)}`).join(' | ');

async function emResultado(consulta: () => Promise<Resultado>): Promise<Resultado> {
  try {
    return await consulta();
  } catch (error) {
    if (!(error instanceof HttpError) || error.status >= 500) throw error;
    return { situacao: error.status === 404 ? 'NAO_ENCONTRADA' : 'RECUSADA', mensagem: error.message };
  }
}

const chave = (servico: number, view: (p: Pedido, chave: string) => Promise<Resultado>): Omit<Lote, 'colunas'> => ({
  layout: 'chave',
  servico,
  async consultar(p, [c = '']) {
    if (isValidChaveAcesso(c)) return emResultado(() => view(p, c.replace(/\s/g, '')));
    await registrarNaoEncontrada(p, servico, c, 'CHAVE_INVALIDA');
    return invalida(message('campoInvalido', { field: 'chave de acesso' }));
  },
});

export const LOTES = {
  fate: {
    ...chave(SERVICO.fatePorChave, async (p, c) => {
      const f = await fatePorChave(p, c);
      return {
        situacao: f.situacao === 'CANCELADA' ? 'CANCELADA' : 'ENCONTRADA',
        dados: [f.uf, f.emitente.cnpj, f.emitente.nome, f.destinatario.documento, f.destinatario.nome, formatDateForFile(f.emissao), reais(f.valorNota), f.fatura.numero ?? '', reais(f.fatura.valorLiquido), parcelas(f.duplicatas)],
      };
    }),
    colunas: ['UF', 'CNPJ_EMITENTE', 'NOME_EMITENTE', 'DOC_DESTINATARIO', 'NOME_DESTINATARIO', 'DATA_EMISSAO', 'VALOR_NOTA', 'NUMERO_FATURA', 'VALOR_LIQUIDO', 'PARCELAS'],
  },
  recebivel: {
    ...chave(SERVICO.recebivelAvaliacao, async (p, c) => {
      const r = await consultas.recebivel(p, c);
      return {
        situacao: r.situacao === 'CANCELADA' ? 'CANCELADA' : 'ENCONTRADA',
        dados: [
          r.uf,
          r.emitente.cnpj,
          r.destinatario.documento,
          reais(r.valorLiquido),
          reais(r.saldoAVencer),
          r.parcelas
            .map((d) => `${d.numero} ${formatDateForFile(d.vencimento)} ${reais(d.valor)} ${d.situacao}${d.cessao ? ` CEDIDA ${formatDateForFile(d.cessao.dataCessao)} ${d.cessao.cnpjCessionario}` : ''}`)
            .join(' | '),
          // The evidence (docs/recebivel.md), after the columns of before so that readers by position keep working.
          r.manifestacao ? `${r.manifestacao.tpEvento} ${r.manifestacao.descricao}` : '',
          r.manifestacao ? formatDateForFile(r.manifestacao.data) : '',
          r.entrega ? formatDateForFile(r.entrega.data) : '',
          r.entrega ? `${r.entrega.documentoRecebedor} ${r.entrega.nomeRecebedor}` : '',
          reais(r.valorDevolvido),
          reais(r.valorLiquidoAposDevolucoes),
          r.ctes.filter((c) => !c.cancelado).map((c) => c.chave).join(' | '),
          r.flags.join(' '),
        ],
      };
    }),
    colunas: [
      'UF',
      'CNPJ_EMITENTE',
      'DOC_DESTINATARIO',
      'VALOR_LIQUIDO',
      'SALDO_A_VENCER',
      'PARCELAS',
      'MANIFESTACAO',
      'DATA_MANIFESTACAO',
      'DATA_ENTREGA',
      'RECEBEDOR',
      'VALOR_DEVOLVIDO',
      'VALOR_LIQUIDO_APOS_DEVOLUCOES',
      'CTE',
      'FLAGS',
    ],
  },
  chaveComposta: {
    layout: 'chaveComposta',
    servico: SERVICO.fatePorChaveComposta,
    colunas: ['CHNFE', 'UF', 'NOME_EMITENTE', 'NOME_DESTINATARIO', 'DATA_EMISSAO', 'VALOR_LIQUIDO'],
    async consultar(p, [emissor = '', destinatario = '', vencimento = '', valorParcela = '', numero = '']) {
      const venc = dia(vencimento);
      const centavos = valor(valorParcela);
      if (!isValidCnpj(emissor.toUpperCase())) return invalida(message('cnpjInvalido'));
      if (!isValidCnpj(destinatario.toUpperCase()) && !isValidCpf(destinatario)) return invalida(message('campoInvalido', { field: 'CNPJ_DESTINATARIO' }));
      if (!venc) return invalida(message('campoInvalido', { field: 'DATA_VENCIMENTO_PARCELA' }));
      if (centavos === null || centavos <= 0) return invalida(message('campoInvalido', { field: 'VALOR_PARCELA' }));
      if (numero && !/^\d{1,3}$/.test(numero)) return invalida(message('campoInvalido', { field: 'NUMERO_PARCELA' }));
      return emResultado(async () => {
        const fates = await consultas.porChaveComposta(p, {
          cnpjEmissor: emissor.toUpperCase(),
          cnpjDestinatario: destinatario.toUpperCase(),
          dataVencimentoParcela: venc,
          valorParcela: centavos,
          numeroParcela: numero || undefined,
        });
        // One line per look-up: several Fat-e sharing the composite are listed in the same cells.
        const col = (f: (x: (typeof fates)[number]) => string) => fates.map(f).join(' | ');
        return {
          situacao: fates.every((f) => f.situacao === 'CANCELADA') ? 'CANCELADA' : 'ENCONTRADA',
          dados: [col((f) => f.chave), col((f) => f.uf), col((f) => f.emitente.nome), col((f) => f.destinatario.nome), col((f) => formatDateForFile(f.emissao)), col((f) => reais(f.fatura.valorLiquido))],
        };
      });
    },
  },
} satisfies Record<string, Lote>;

export function loteFaturamento(tipo: TipoFaturamento): Lote {
  return {
    layout: 'faturamento',
    servico: FATURAMENTO_TIPOS[tipo].servico,
    colunas: ['NOME_EMITENTE', 'QUANTIDADE', 'VALOR_TOTAL'],
    async consultar(p, [base = '', emitente = '', inicio = '', fim = '']) {
      const de = dia(inicio);
      const ate = dia(fim);
      if (!isValidCnpjBase(base.toUpperCase())) return invalida(message('cnpjBaseInvalido'));
      if (!isValidCnpj(emitente.toUpperCase())) return invalida(message('cnpjInvalido'));
      if (!de || !ate) return invalida(message('dataInvalida'));
      return emResultado(async () => {
        const r = await consultas.faturamento(p, tipo, { cnpjBaseInstFin: base.toUpperCase(), cnpjEmitente: emitente.toUpperCase(), dataInicio: de, dataFim: ate });
        return { situacao: 'ENCONTRADA', dados: [r.nomeEmitente, String(r.quantidade), reais(r.valorTotal)] };
      });
    },
  };
}

/** Billing lines: a period over a year anywhere refuses the whole file (spec 3, 5.4), before any look-up. */
function exigirPeriodos(linhas: readonly Linha[]): void {
  linhas.forEach(([, , inicio = '', fim = ''], i) => {
    const de = dia(inicio);
    const ate = dia(fim);
    if (de && ate && de <= ate && (Date.parse(ate) - Date.parse(de)) / 86_400_000 > 365) {
      throw invalid('csvLinhaPeriodo', { linha: String(i + 1) });
    }
  });
}

/** Runs `tarefa` for 0 … n - 1, EM_PARALELO at a time. */
async function emParalelo(n: number, tarefa: (i: number) => Promise<unknown>): Promise<void> {
  let proxima = 0;
  const trabalhador = async () => {
    while (proxima < n) await tarefa(proxima++);
  };
  await Promise.all(Array.from({ length: Math.min(EM_PARALELO, n) }, trabalhador));
}

/** Runs a batch: the file rule, the service check, every line, their charges, and the answer's CSV text. */
export async function executar(lote: Lote, p: Pedido, linhasDoArquivo: readonly string[]): Promise<string> {
  const lido = lerLote(lote.layout, linhasDoArquivo);
  if (loteRecusado(lido)) throw invalid(lido.erro, lido.vars);
  if (lote.layout === 'faturamento') exigirPeriodos(lido.linhas);
  await exigirServico(p.chamador, lote.servico);

  // No charge without an answer (issue 37): the lines' charges are collected while they are looked up
  // and written only once the whole CSV is built, so a line that fails (500) charges no line before it.
  const cobrancas: (() => Promise<unknown>)[] = [];
  const pedido: Pedido = { ...p, cobrancasAdiadas: cobrancas };
  const resultados: Resultado[] = new Array(lido.linhas.length);
  await emParalelo(lido.linhas.length, async (i) => {
    resultados[i] = await lote.consultar(pedido, lido.linhas[i]!);
  });

  const cabecalho = LAYOUTS_LOTE[lote.layout];
  const vazio = lote.colunas.map(() => '');
  const data = lido.linhas.map((linha, i) => {
    const r = resultados[i]!;
    return [...cabecalho.map((_, c) => linha[c] ?? ''), r.situacao, ...(r.dados ?? vazio), r.mensagem ?? ''];
  });
  // A byte-order mark so that spreadsheet programs read the accents as UTF-8.
  const csv = `\uFEFF${Papa.unparse({ fields: [...cabecalho, 'SITUACAO', ...lote.colunas, 'MENSAGEM'], data }, { delimiter: ';', escapeFormulae: true, newline: '\r\n' })}\r\n`;
  await emParalelo(cobrancas.length, (i) => cobrancas[i]!());
  return csv;
}
