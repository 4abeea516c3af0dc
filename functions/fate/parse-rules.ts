import * as z from 'zod';
import { isValidCnpj, isValidCpf, parseDecimal, splitChaveAcesso, type Centavos, type ChaveAcessoSplit } from '@plac/shared/domain';
import { message, type MessageKey } from '@plac/shared/messages';
// zod's issues in pt-BR with the catalogue's texts, for the error screen.
import '@plac/shared/validation';
import type { NfeFatura } from './parse-tipos';

/**
 * The field rules and the error of the distribution's parsers (parse.ts for the NF-e, parse-cte.ts
 * for the CT-e), in one module so that both apply the same rules without importing each other.
 */

export type Excecao =
  | 'XmlMalformado'
  | 'EsquemaInvalido'
  | 'ChaveInvalida'
  | 'CnpjInvalido'
  | 'CpfInvalido'
  | 'NotaNaoAutorizada'
  | 'DuplicatasNaoFecham'
  | 'AmbienteHomologacao'
  | 'EventoSemRegistro'
  | 'ProtocoloDivergente';

/** A document that cannot be processed: `excecao` names the rule, `erro` says it in pt-BR. */
export class DocumentoInvalido extends Error {
  constructor(
    readonly excecao: Excecao,
    readonly erro: string,
    /**
     * The parser's own message and where it failed in the document (line and column, the schema
     * path), for the error screen's detail. Never a stack or a path of the server (issue 27 item 2).
     */
    readonly detalhe?: string,
  ) {
    super(`${excecao}: ${erro}`);
    this.name = 'DocumentoInvalido';
  }
}

export function invalido(excecao: Excecao, key: MessageKey, vars: Record<string, string>, detalhe?: string): DocumentoInvalido {
  return new DocumentoInvalido(excecao, message(key, vars), detalhe);
}

export const texto = z.string().trim().min(1);

/** A decimal with at most 2 places ("1234.5", "0.00") as exact centavos (shared money rule). */
export const dinheiro = z.string().transform((v, ctx) => {
  const centavos = parseDecimal(v);
  if (centavos === null) {
    ctx.addIssue({ code: 'custom', message: 'valor decimal inválido' });
    return z.NEVER;
  }
  return centavos;
});

/** Date-time with a UTC offset (the NF-e's TDateTimeUTC), stored as an ISO-8601 UTC instant. */
export const instante = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)$/, { error: 'data e hora inválidas' })
  .refine((v) => !Number.isNaN(Date.parse(v)), { error: 'data e hora inválidas' })
  .transform((v) => new Date(v).toISOString());

/** A calendar day that exists (2026-02-30 does not). */
export const dia = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'data inválida' })
  .refine((v) => new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v, { error: 'data inválida' });

export function validar<S extends z.ZodType>(schema: S, tree: unknown, nome: string): z.output<S> {
  const result = schema.safeParse(tree);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const detalhe = `${issue?.path.join('.') ?? ''}: ${(issue?.message ?? '').replace(/\.$/, '')}`;
  throw invalido('EsquemaInvalido', 'esquemaInvalido', { schema: nome, detalhe }, result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n'));
}

/** 44 characters as the document carries them, a real UF, month, CNPJ and model, and the right check digit. */
export function chaveValida(chave: string): ChaveAcessoSplit {
  const parts = /^[0-9A-Z]{44}$/.test(chave) ? splitChaveAcesso(chave) : undefined;
  if (!parts) throw invalido('ChaveInvalida', 'chaveAcessoInvalida', { chave, detalhe: 'formato ou dígito verificador incorreto' });
  return parts;
}

export function cnpjValido(cnpj: string, papel: string): string {
  const value = cnpj.toUpperCase();
  if (!isValidCnpj(value)) throw invalido('CnpjInvalido', 'documentoCnpjInvalido', { papel, cnpj });
  return value;
}

export function cpfValido(cpf: string, papel: string): string {
  if (!isValidCpf(cpf)) throw invalido('CpfInvalido', 'documentoCpfInvalido', { papel, cpf });
  return cpf;
}

export function somar(valores: readonly Centavos[]): Centavos {
  return Number(valores.reduce((total, v) => total + BigInt(v), 0n)) as Centavos;
}

/** 123456 → '1234.56', for messages (exact, no float). */
export function reais(value: Centavos): string {
  const digits = String(value).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * The bill's instalments (`dup`) as stored, after the rule both documents share: they add up to the
 * bill's net value (`fat/vLiq`), to the centavo.
 */
export function duplicatasQueFecham(
  dups: readonly { nDup: string; dVenc: string; vDup: Centavos }[],
  vLiq: Centavos,
): { numero: string; vencimento: string; valor: Centavos }[] {
  const duplicatas = dups.map((d) => ({ numero: d.nDup, vencimento: d.dVenc, valor: d.vDup }));
  const soma = somar(duplicatas.map((d) => d.valor));
  if (soma !== vLiq) throw invalido('DuplicatasNaoFecham', 'duplicatasNaoFecham', { soma: reais(soma), liquido: reais(vLiq) });
  return duplicatas;
}

/** What an authorised NF-e or CT-e states about itself, which its access key must repeat. */
export interface Identidade {
  chave: string;
  /** infNFe/infCte Id: the model's prefix ('NFe', 'CTe') and the key. */
  id: string;
  prefixo: 'NFe' | 'CTe';
  cUF: string;
  mod: string;
  serie: string;
  numero: string;
  cnpjEmitente: string;
  cStat: string;
}

/** Authorisation statuses: 100 authorised, 150 authorised out of time. */
const AUTORIZADO: ReadonlySet<string> = new Set(['100', '150']);

/**
 * The rules both models share before anything is read from a document: its key is well formed and is
 * the key of the signed document (the Id is the prefix and the key), the key repeats the document's
 * UF, model (`modelo`, when the schema admits one model only), series, number and issuer, and the
 * Sefaz authorised it (`naoAutorizado`: the model's message otherwise).
 */
export function conferirIdentidade(doc: Identidade, naoAutorizado: MessageKey, modelo?: string): ChaveAcessoSplit {
  const { chave } = doc;
  const parts = chaveValida(chave);
  if (doc.id !== `${doc.prefixo}${chave}`) {
    throw invalido('ChaveInvalida', 'chaveAcessoInvalida', { chave, detalhe: `difere do Id do documento (${doc.id})` });
  }
  const divergente =
    (parts.cUF !== doc.cUF && 'cUF') ||
    ((parts.mod !== doc.mod || (modelo !== undefined && parts.mod !== modelo)) && 'modelo') ||
    (Number(parts.serie) !== Number(doc.serie) && 'série') ||
    (Number(parts.nNF) !== Number(doc.numero) && 'número') ||
    (parts.cnpj !== doc.cnpjEmitente.toUpperCase() && 'CNPJ do emitente');
  if (divergente) {
    throw invalido('ChaveInvalida', 'chaveAcessoInvalida', { chave, detalhe: `${divergente} difere do documento` });
  }
  if (!AUTORIZADO.has(doc.cStat)) throw invalido('NotaNaoAutorizada', naoAutorizado, { chave, cStat: doc.cStat });
  return parts;
}

/**
 * A bill group (`fat`) with its instalments (`dup`) as the Fat-e stores them: a bill without
 * instalments is refused as outside the schema, and the instalments must add up to the net value.
 */
export function faturaComDuplicatas(
  fat: { nFat?: string | undefined; vOrig?: Centavos | undefined; vDesc?: Centavos | undefined; vLiq: Centavos },
  dups: readonly { nDup: string; dVenc: string; vDup: Centavos }[],
  nome: string,
): Pick<NfeFatura, 'fatura' | 'duplicatas'> {
  if (dups.length === 0) {
    throw invalido('EsquemaInvalido', 'esquemaInvalido', { schema: nome, detalhe: 'a fatura não tem duplicatas' });
  }
  return {
    fatura: { numero: fat.nFat, valorOriginal: fat.vOrig ?? fat.vLiq, desconto: fat.vDesc ?? (0 as Centavos), valorLiquido: fat.vLiq },
    duplicatas: duplicatasQueFecham(dups, fat.vLiq),
  };
}

/** The environment a document was issued in (tpAmb): 1 produção, 2 homologação. */
export const tpAmb = z.enum(['1', '2']);

/**
 * A homologação document (tpAmb 2) is 'sem valor fiscal': it becomes a Fat-e only in a stage configured
 * for homologação (PLAC_SEFAZ_TPAMB=2, the twin), which accepts both. Anything else is production and
 * takes tpAmb 1 only, so a missing setting can never let test documents into a production ledger.
 */
export function ambienteAceito(ambiente: '1' | '2', chave: string): void {
  if (ambiente === '1' || process.env.PLAC_SEFAZ_TPAMB === '2') return;
  throw invalido('AmbienteHomologacao', 'documentoHomologacao', { chave });
}

/** Event statuses that registered the event: 135, 136 (linked to the document later) and 155 (cancellation out of time). */
export const EVENTO_REGISTRADO: ReadonlySet<string> = new Set(['135', '136', '155']);

/**
 * A registered cancellation (NF-e or CT-e) as stored: its own registration protocol and instant
 * (retEvento: nProt, dhRegEvento), which a registered event always carries, and the authorisation
 * protocol of the document it cancels (detEvento nProt), checked against the stored one at ingestion.
 */
export function cancelamentoRegistrado(
  chave: string,
  registro: { nProt?: string | undefined; dhRegEvento?: string | undefined },
  det: { nProt: string; xJust: string },
  nome: string,
): { kind: 'cancelamento'; chave: string; tpEvento: '110111'; protocolo: string; protocoloDocumento: string; justificativa: string; data: string } {
  if (!registro.nProt || !registro.dhRegEvento) {
    throw invalido('EventoSemRegistro', 'esquemaInvalido', { schema: nome, detalhe: 'o registro do evento (nProt e dhRegEvento) é obrigatório' });
  }
  return { kind: 'cancelamento', chave, tpEvento: '110111', protocolo: registro.nProt, protocoloDocumento: det.nProt, justificativa: det.xJust, data: registro.dhRegEvento };
}
