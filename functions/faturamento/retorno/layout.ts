/**
 * The bank's return file of the FEBRABAN arrecadação layout ("Layout Padrão de Arrecadação/Recebimento
 * com Utilização do Código de Barras", the versions of conferencia.ts's VERSOES_SUPORTADAS, 05 to 07,
 * which the import checks before anything else is read): fixed-width records of 150 positions, a
 * header A, one detail G per payment received with a barcode, a trailer Z. Pure: text in, records and
 * the problems found out. Positions below are 1-based, inclusive, as the layout numbers them.
 *
 *   A  01 'A' · 02 remessa code (2 = retorno) · 03-22 convênio · 23-42 company · 43-45 bank code ·
 *      46-65 bank name · 66-73 generation date AAAAMMDD · 74-79 NSA · 80-81 layout version ·
 *      82-98 'CODIGO DE BARRAS' · 99-150 reserved
 *   G  01 'G' · 02-21 credited account · 22-29 payment date · 30-37 credit date · 38-81 barcode (44) ·
 *      82-93 amount received (centavos) · 94-100 bank fee (centavos) · 101-108 NSR · 109-116 collecting
 *      branch · 117 channel · 118-140 authentication · 141 payment form · 142-150 reserved
 *   Z  01 'Z' · 02-07 records in the file, header and trailer included · 08-24 total of the amounts
 *      received (centavos) · 25-150 reserved
 */

import { createHash } from 'node:crypto';

export const TAMANHO_REGISTRO = 150;

export interface Cabecalho {
  convenio: string;
  banco: string;
  nomeBanco: string;
  /** 'YYYY-MM-DD'. */
  dataGeracao: string;
  nsa: number;
  versao: string;
}

export interface Pagamento {
  /** The line of the file (1-based), for the report. */
  linha: number;
  nsr: number;
  /** 'YYYY-MM-DD'. */
  dataPagamento: string;
  dataCredito: string;
  codigoBarras: string;
  /** Centavos. */
  valorRecebido: number;
  tarifa: number;
  /**
   * The bank's authentication of the payment (positions 118-140, trimmed): with the barcode, the day
   * and the amount, what identifies one payment whatever file reports it (recebimentos.ts).
   */
  autenticacao: string;
}

export interface Problema {
  linha: number;
  motivo: string;
}

export interface Retorno {
  cabecalho: Cabecalho | null;
  pagamentos: Pagamento[];
  trailer: { totalRegistros: number; valorTotal: number } | null;
  /** Lines that could not be read, and file-level faults (line 0): the file is refused when any. */
  problemas: Problema[];
}

/** Field at 1-based inclusive positions. */
const campo = (registro: string, de: number, ate: number) => registro.slice(de - 1, ate);
const numero = (texto: string) => (/^\d+$/.test(texto) ? Number(texto) : Number.NaN);

/** 'AAAAMMDD' → 'YYYY-MM-DD' when it is a real day, else null. */
export function dataAaaammdd(texto: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(texto);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
}

function cabecalho(registro: string, linha: number, problemas: Problema[]): Cabecalho | null {
  if (campo(registro, 2, 2) !== '2') problemas.push({ linha, motivo: 'O cabeçalho não é de um arquivo de retorno (código de remessa diferente de 2).' });
  if (campo(registro, 82, 98).trim().normalize('NFD').replace(/\p{Diacritic}/gu, '') !== 'CODIGO DE BARRAS') {
    problemas.push({ linha, motivo: "O cabeçalho não identifica o serviço 'CODIGO DE BARRAS'." });
  }
  const dataGeracao = dataAaaammdd(campo(registro, 66, 73));
  if (!dataGeracao) problemas.push({ linha, motivo: 'Data de geração inválida no cabeçalho.' });
  return {
    convenio: campo(registro, 3, 22).trim(),
    banco: campo(registro, 43, 45),
    nomeBanco: campo(registro, 46, 65).trim(),
    dataGeracao: dataGeracao ?? '',
    nsa: numero(campo(registro, 74, 79)) || 0,
    versao: campo(registro, 80, 81),
  };
}

function pagamento(registro: string, linha: number, problemas: Problema[]): Pagamento | null {
  const dataPagamento = dataAaaammdd(campo(registro, 22, 29));
  const dataCredito = dataAaaammdd(campo(registro, 30, 37));
  const codigoBarras = campo(registro, 38, 81);
  const valorRecebido = numero(campo(registro, 82, 93));
  const tarifa = numero(campo(registro, 94, 100));
  const nsr = numero(campo(registro, 101, 108));
  const autenticacao = campo(registro, 118, 140).trim();
  const falhas = [
    !dataPagamento && 'data de pagamento inválida',
    !dataCredito && 'data de crédito inválida',
    !/^\d{44}$/.test(codigoBarras) && 'código de barras sem 44 dígitos',
    !Number.isSafeInteger(valorRecebido) && 'valor recebido não numérico',
    !Number.isSafeInteger(tarifa) && 'valor da tarifa não numérico',
    !Number.isSafeInteger(nsr) && 'NSR não numérico',
  ].filter((f): f is string => typeof f === 'string');
  if (falhas.length > 0) {
    problemas.push({ linha, motivo: `Registro G ilegível: ${falhas.join(', ')}.` });
    return null;
  }
  return { linha, nsr, dataPagamento: dataPagamento!, dataCredito: dataCredito!, codigoBarras, valorRecebido, tarifa, autenticacao };
}

/**
 * Reads a return file. Line ends may be CRLF or LF and a final empty line is ignored; every other line
 * must be a 150-position record. The file must open with A and close with Z, and the trailer's record
 * count and total must match the file (a truncated or altered file is refused, never half imported).
 * Records of other types (B, C, F, … of other services) are reported, not silently dropped.
 */
export function lerRetorno(texto: string): Retorno {
  const linhas = texto.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (linhas.at(-1) === '') linhas.pop();
  const problemas: Problema[] = [];
  const pagamentos: Pagamento[] = [];
  let cab: Cabecalho | null = null;
  let trailer: Retorno['trailer'] = null;
  if (linhas.length === 0) return { cabecalho: null, pagamentos, trailer, problemas: [{ linha: 0, motivo: 'O arquivo está vazio.' }] };

  linhas.forEach((registro, i) => {
    const linha = i + 1;
    if (registro.length !== TAMANHO_REGISTRO) {
      problemas.push({ linha, motivo: `O registro tem ${registro.length} posições; o layout exige ${TAMANHO_REGISTRO}.` });
      return;
    }
    const tipo = registro[0];
    if (tipo === 'A') {
      if (linha !== 1) problemas.push({ linha, motivo: 'Cabeçalho (A) fora da primeira linha.' });
      else cab = cabecalho(registro, linha, problemas);
    } else if (tipo === 'Z') {
      if (linha !== linhas.length) problemas.push({ linha, motivo: 'Trailer (Z) fora da última linha.' });
      else trailer = { totalRegistros: numero(campo(registro, 2, 7)), valorTotal: numero(campo(registro, 8, 24)) };
    } else if (tipo === 'G') {
      const p = pagamento(registro, linha, problemas);
      if (p) pagamentos.push(p);
    } else {
      problemas.push({ linha, motivo: `Registro do tipo '${tipo}' não é tratado por este serviço (somente A, G e Z).` });
    }
  });

  if (!cab) problemas.push({ linha: 0, motivo: 'O arquivo não começa com o cabeçalho (A).' });
  const z = trailer as Retorno['trailer'];
  if (!z) {
    problemas.push({ linha: 0, motivo: 'O arquivo não termina com o trailer (Z).' });
  } else {
    if (z.totalRegistros !== linhas.length) problemas.push({ linha: linhas.length, motivo: `O trailer informa ${z.totalRegistros} registros; o arquivo tem ${linhas.length}.` });
    const soma = pagamentos.reduce((s, p) => s + p.valorRecebido, 0);
    if (problemas.length === 0 && z.valorTotal !== soma) {
      problemas.push({ linha: linhas.length, motivo: `O trailer informa o total de ${centavos(z.valorTotal)}; os registros G somam ${centavos(soma)}.` });
    }
  }
  return { cabecalho: cab, pagamentos, trailer: z, problemas };
}

const centavos = (n: number) => `R$ ${(n / 100).toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

// ---- writing (the twin's bank, the tests and the demo) ------------------------------------------------

/** The layout version our writer (the twin's bank, `npm run banco`) puts in the header. */
export const VERSAO_ESCRITA = '05';

const esq = (texto: string, n: number) => texto.slice(0, n).padEnd(n, ' ');
const dir = (valor: number | string, n: number) => String(valor).padStart(n, '0').slice(-n);
const aaaammdd = (iso: string) => iso.replaceAll('-', '');

/** A stand-in for a bank's authentication: the same for the same payment (barcode, day, amount). */
function autenticacaoDerivada(p: { codigoBarras: string; dataPagamento: string; valorRecebido: number }): string {
  return `AUT${createHash('sha256').update(`${p.codigoBarras}|${p.dataPagamento}|${p.valorRecebido}`).digest('hex').slice(0, 20).toUpperCase()}`;
}

/**
 * A return file as a bank would write it for these payments (the twin has no bank: the tests, the E2E
 * and the demo use this to produce what an admin would upload).
 */
export function escreverRetorno(r: {
  convenio: string;
  banco: string;
  nomeBanco: string;
  dataGeracao: string;
  nsa: number;
  /** The layout version written at positions 80–81: VERSAO_ESCRITA unless a test asks for another. */
  versao?: string;
  /**
   * `autenticacao`: the bank's authentication of the payment; by default one derived from the payment
   * itself (barcode, day, amount), so the same payment written into two files reads as the same payment,
   * as a bank's authentication does. Two payments of one barcode, day and amount are two only with two.
   */
  pagamentos: { dataPagamento: string; dataCredito: string; codigoBarras: string; valorRecebido: number; tarifa?: number; autenticacao?: string }[];
}): string {
  const linhas = [
    `A2${esq(r.convenio, 20)}${esq('SEFAZ PLAC FATE', 20)}${dir(r.banco, 3)}${esq(r.nomeBanco.toUpperCase(), 20)}${aaaammdd(r.dataGeracao)}${dir(r.nsa, 6)}${esq(r.versao ?? VERSAO_ESCRITA, 2)}${esq('CODIGO DE BARRAS', 17)}${esq('', 52)}`,
    ...r.pagamentos.map(
      (p, i) =>
        `G${dir(r.banco, 3)}${dir('12340000123456', 17)}${aaaammdd(p.dataPagamento)}${aaaammdd(p.dataCredito)}${p.codigoBarras}${dir(p.valorRecebido, 12)}${dir(p.tarifa ?? 0, 7)}${dir(i + 2, 8)}${esq('00011234', 8)}3${esq(p.autenticacao ?? autenticacaoDerivada(p), 23)}3${esq('', 9)}`,
    ),
  ];
  const total = r.pagamentos.reduce((s, p) => s + p.valorRecebido, 0);
  linhas.push(`Z${dir(linhas.length + 1, 6)}${dir(total, 17)}${esq('', 126)}`);
  return linhas.join('\r\n') + '\r\n';
}
