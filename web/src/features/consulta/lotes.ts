import { consulta } from '@plac/shared/contracts';
import { FATURAMENTO_TIPOS } from '@plac/shared/domain';
import type { LayoutLote } from '@plac/shared/domain/lote-csv';
import { callApi } from '../../lib/api';

/** The five CSV batch screens: title, layout, the call and the spec's answer file (spec 3, 7.5). */
export interface LoteCsv {
  titulo: string;
  layout: LayoutLote;
  instrucoes: readonly string[];
  arquivo: string;
  /** The result carries the receivable's evidence: the screen explains its columns and flags. */
  evidencia?: boolean;
  enviar(linhas: string[], idempotencyKey: string): Promise<string>;
}

const DATAS = 'Datas no formato DD/MM/AAAA.';

export const LOTES_CSV = {
  fate: {
    titulo: 'Consulta Fat-e em Lote',
    layout: 'chave',
    instrucoes: ['Uma chave de acesso de 44 dígitos por linha.'],
    arquivo: 'retorno-lote-consultar-fatura.csv',
    enviar: (linhas, idempotencyKey) => callApi(consulta.loteFate, { body: { listaChNfe: linhas }, idempotencyKey }),
  },
  chaveComposta: {
    titulo: 'Consulta Fat-e por Chave Composta',
    layout: 'chaveComposta',
    instrucoes: [DATAS, 'Valor da parcela com vírgula decimal (ex.: 1000,00).', 'O número da parcela pode ficar vazio, mas a coluna e o separador permanecem.'],
    arquivo: 'retorno-lote-consultar-fatura-filtro.csv',
    enviar: (linhas, idempotencyKey) => callApi(consulta.loteChaveComposta, { body: { listaChaveComposta: linhas }, idempotencyKey }),
  },
  recebivel: {
    titulo: 'Recebível em Avaliação',
    layout: 'chave',
    instrucoes: ['Uma chave de acesso de 44 dígitos por linha; o resultado traz cada parcela a vencer ou vencida, com sua cessão, e a evidência do recebível.'],
    arquivo: 'retorno-lote-recebivel-avaliacao.csv',
    evidencia: true,
    enviar: (linhas, idempotencyKey) => callApi(consulta.loteRecebivel, { body: { listaChNfe: linhas }, idempotencyKey }),
  },
  faturamentoNfce: {
    titulo: 'Consulta Faturamento NFC-e',
    layout: 'faturamento',
    instrucoes: [DATAS, 'O período de cada linha é de no máximo 1 ano.', 'CNPJ_BASE_INST_FIN: os 8 primeiros caracteres do CNPJ da instituição financeira autorizada.'],
    arquivo: FATURAMENTO_TIPOS[0].arquivo,
    enviar: (linhas, idempotencyKey) => callApi(consulta.loteFaturamento, { params: { tipo: '0' }, body: { lista: linhas }, idempotencyKey }),
  },
  faturamentoNfe: {
    titulo: 'Consulta Faturamento NF-e',
    layout: 'faturamento',
    instrucoes: [DATAS, 'O período de cada linha é de no máximo 1 ano.', 'CNPJ_BASE_INST_FIN: os 8 primeiros caracteres do CNPJ da instituição financeira autorizada.'],
    arquivo: FATURAMENTO_TIPOS[1].arquivo,
    enviar: (linhas, idempotencyKey) => callApi(consulta.loteFaturamento, { params: { tipo: '1' }, body: { lista: linhas }, idempotencyKey }),
  },
} satisfies Record<string, LoteCsv>;
