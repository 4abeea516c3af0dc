import * as z from 'zod';
import type { Cancelamento, DocumentoDeVinculo, Ignorado, NfeFatura, Parte, Vinculos } from './parse-tipos';
import { ambienteAceito, cancelamentoRegistrado, chaveValida, cnpjValido, conferirIdentidade, cpfValido, dia, dinheiro, EVENTO_REGISTRADO, faturaComDuplicatas, instante, invalido, texto, tpAmb, validar } from './parse-rules';

/**
 * The CT-e 4.00 documents of the CT-e distribution (CTeDistribuicaoDFe): an authorised `cteProc` with
 * a bill (`infCTeNorm/cobr/fat`) becomes a document of the NF-e's shape (`kind: 'nfe'`, "a document
 * with a bill", modelo '57'), a registered cancellation (`procEventoCTe`, 110111) a `cancelamento`.
 * The same field rules and errors as the NF-e (parse-rules.ts); parseDocumento (parse.ts) dispatches
 * the schemas `procCTe` and `procEventoCTe` here.
 *
 * For a CT-e the bill is the carrier's: the emitter is the carrier (and so the `transportador`), and
 * the one who owes it is the tomador of the service, named by `ide/toma3/toma` (0 the sender, 1 the
 * dispatcher, 2 the receiver, 3 the recipient) or given in full in `ide/toma4`.
 */

const endereco = z.object({ UF: texto }).optional();

/** A party of the CT-e (rem, exped, receb, dest, toma4) with its address group: exactly one of CNPJ and CPF. */
const parte = <T extends z.ZodRawShape>(enderecoGroup: T) =>
  z
    .object({ CNPJ: texto.optional(), CPF: texto.optional(), xNome: texto, ...enderecoGroup })
    .refine(
      (p) => {
        const { CNPJ, CPF } = p as { CNPJ?: string; CPF?: string };
        return (CNPJ === undefined) !== (CPF === undefined);
      },
      { error: 'a parte precisa de CNPJ ou CPF' },
    );

const cteProcSchema = z.object({
  cteProc: z.object({
    CTe: z.object({
      infCte: z.object({
        '@_Id': texto,
        ide: z.object({
          cUF: texto,
          tpAmb,
          mod: texto,
          serie: texto,
          nCT: texto,
          dhEmi: instante,
          toma3: z.object({ toma: z.enum(['0', '1', '2', '3']) }).optional(),
          toma4: parte({ enderToma: endereco }).optional(),
        }),
        emit: z.object({ CNPJ: texto, xNome: texto, enderEmit: z.object({ UF: texto }) }),
        rem: parte({ enderReme: endereco }).optional(),
        exped: parte({ enderExped: endereco }).optional(),
        receb: parte({ enderReceb: endereco }).optional(),
        dest: parte({ enderDest: endereco }).optional(),
        vPrest: z.object({ vTPrest: dinheiro }),
        infCTeNorm: z
          .object({
            // The NF-e the CT-e carries (infDoc/infNFe/chave): the transport evidence of those keys.
            infDoc: z.object({ infNFe: z.array(z.object({ chave: texto }).loose()).optional() }).loose().optional(),
            cobr: z
              .object({
                fat: z.object({ nFat: texto.optional(), vOrig: dinheiro.optional(), vDesc: dinheiro.optional(), vLiq: dinheiro }).optional(),
                // One transaction writes the Fat-e and one item per instalment: at most 100 items.
                dup: z.array(z.object({ nDup: texto, dVenc: dia, vDup: dinheiro })).max(99).optional(),
              })
              .optional(),
          })
          .optional(),
      }),
    }),
    protCTe: z.object({ infProt: z.object({ chCTe: texto, cStat: texto, nProt: texto.optional(), dhRecbto: instante.optional() }) }),
  }),
});

const procEventoCteSchema = z.object({
  procEventoCTe: z.object({
    eventoCTe: z.object({
      infEvento: z.object({
        chCTe: texto,
        dhEvento: instante,
        tpEvento: texto,
        tpAmb,
        detEvento: z.object({ evCancCTe: z.object({ nProt: texto, xJust: texto }) }),
      }),
    }),
    // A processed event carries its registration: without it nothing says the Sefaz accepted it.
    retEventoCTe: z.object({ infEvento: z.object({ cStat: texto, nProt: texto.optional(), dhRegEvento: instante.optional() }) }),
  }),
});

/** toma3/toma: which party of the CT-e is the tomador. */
const TOMADOR = { '0': 'rem', '1': 'exped', '2': 'receb', '3': 'dest' } as const;

type InfCte = z.output<typeof cteProcSchema>['cteProc']['CTe']['infCte'];

/** The tomador of the service, the one the bill is owed by: toma4's own party or the one toma3 names. */
function tomador(inf: InfCte, nome: string): Parte {
  const { toma3, toma4 } = inf.ide;
  const partes = {
    rem: inf.rem && { ...inf.rem, uf: inf.rem.enderReme?.UF },
    exped: inf.exped && { ...inf.exped, uf: inf.exped.enderExped?.UF },
    receb: inf.receb && { ...inf.receb, uf: inf.receb.enderReceb?.UF },
    dest: inf.dest && { ...inf.dest, uf: inf.dest.enderDest?.UF },
    toma4: toma4 && { ...toma4, uf: toma4.enderToma?.UF },
  };
  const papel = toma4 ? 'toma4' : toma3 ? TOMADOR[toma3.toma] : undefined;
  if (!papel) throw invalido('EsquemaInvalido', 'esquemaInvalido', { schema: nome, detalhe: 'o tomador do serviço (toma3 ou toma4) é obrigatório' });
  const parte = partes[papel];
  if (!parte) {
    throw invalido('EsquemaInvalido', 'esquemaInvalido', { schema: nome, detalhe: `o tomador (toma3 = ${toma3?.toma}) não está no documento (${papel})` });
  }
  return parte.CNPJ
    ? { cnpj: cnpjValido(parte.CNPJ, 'do tomador'), nome: parte.xNome, uf: parte.uf }
    : { cpf: cpfValido(parte.CPF ?? '', 'do tomador'), nome: parte.xNome, uf: parte.uf };
}

export function cte(tree: unknown, nome: string): NfeFatura | DocumentoDeVinculo | Ignorado {
  const { cteProc } = validar(cteProcSchema, tree, nome);
  const inf = cteProc.CTe.infCte;
  const { chCTe: chave, cStat, nProt, dhRecbto } = cteProc.protCTe.infProt;
  // The key repeats the CT-e's identity, and its model is 57.
  const identidade = { chave, id: inf['@_Id'], prefixo: 'CTe', cUF: inf.ide.cUF, mod: inf.ide.mod, serie: inf.ide.serie, numero: inf.ide.nCT, cnpjEmitente: inf.emit.CNPJ, cStat } as const;
  conferirIdentidade(identidade, 'cteNaoAutorizado', '57');
  ambienteAceito(inf.ide.tpAmb, chave);

  const transportadas = [...new Set((inf.infCTeNorm?.infDoc?.infNFe ?? []).map((n) => n.chave))];
  for (const nfe of transportadas) chaveValida(nfe);
  const vinculos: Vinculos | undefined = transportadas.length > 0 ? { tipo: 'TRANSPORTE', chaves: transportadas } : undefined;

  // Only a CT-e with a billing group (infCTeNorm/cobr/fat) becomes a Fat-e; one without still says which NF-e it carries.
  const cobr = inf.infCTeNorm?.cobr;
  const fat = cobr?.fat;
  if (!fat && vinculos) {
    return { kind: 'vinculo', chave, modelo: inf.ide.mod, emissao: inf.ide.dhEmi, emitente: { cnpj: cnpjValido(inf.emit.CNPJ, 'do emitente'), nome: inf.emit.xNome }, valor: inf.vPrest.vTPrest, vinculos };
  }
  if (!fat) return { kind: 'ignorado', reason: 'CT-e sem grupo de fatura (cobr/fat)' };
  const cobranca = faturaComDuplicatas(fat, cobr?.dup ?? [], nome);
  const emitenteCnpj = cnpjValido(inf.emit.CNPJ, 'do emitente');
  const destinatario = tomador(inf, nome);
  return {
    kind: 'nfe',
    chave,
    modelo: inf.ide.mod,
    serie: inf.ide.serie,
    numero: inf.ide.nCT,
    emissao: inf.ide.dhEmi,
    protocolo: nProt ?? '',
    ...(dhRecbto ? { recebimento: dhRecbto } : {}),
    emitente: { cnpj: emitenteCnpj, nome: inf.emit.xNome, uf: inf.emit.enderEmit.UF },
    destinatario,
    valorNota: inf.vPrest.vTPrest,
    // The carrier of a CT-e is its emitter.
    transportador: { cnpj: emitenteCnpj, nome: inf.emit.xNome },
    ...cobranca,
    ...(vinculos ? { vinculos } : {}),
  };
}

export function eventoCte(tree: unknown, nome: string): Cancelamento | Ignorado {
  const tipo = (tree as { procEventoCTe?: { eventoCTe?: { infEvento?: { tpEvento?: unknown } } } }).procEventoCTe?.eventoCTe?.infEvento?.tpEvento;
  // Only the cancellation (110111) changes a Fat-e; other events are not stored.
  if (typeof tipo === 'string' && tipo !== '110111') return { kind: 'ignorado', reason: `evento ${tipo}` };
  const { procEventoCTe: p } = validar(procEventoCteSchema, tree, nome);
  const inf = p.eventoCTe.infEvento;
  chaveValida(inf.chCTe);
  const registro = p.retEventoCTe.infEvento;
  if (!EVENTO_REGISTRADO.has(registro.cStat)) return { kind: 'ignorado', reason: `evento não registrado (cStat ${registro.cStat})` };
  ambienteAceito(inf.tpAmb, inf.chCTe);
  return cancelamentoRegistrado(inf.chCTe, registro, inf.detEvento.evCancCTe, nome);
}
