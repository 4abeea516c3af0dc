import * as z from 'zod';
import { isEventoRecebivel, type TipoEventoRecebivel } from '@plac/shared/domain';
import { ambienteAceito, chaveValida, cnpjValido, cpfValido, EVENTO_REGISTRADO, instante, invalido, texto, tpAmb, validar } from './parse-rules';
import type { Ignorado } from './parse-tipos';

/**
 * The NF-e events that bear on a receivable (docs/recebivel.md), from a `procEventoNFe` of the
 * distribution: the recipient's manifestation (210200, 210210, 210220, 210240 with its
 * justification), the delivery proof (110130 with the delivery's instant, the receiver's document
 * and name and the coordinates; 110131 its cancellation, naming the proof's protocol) and the
 * correction letter (110110). The cancellation (110111) stays in parse.ts. Like every event, it
 * counts only when registered (retEvento cStat 135, 136 or 155) and then carries its protocol and
 * registration instant; events of the national environment come with cOrgao 91.
 */

export interface EventoRecebivel {
  kind: 'evento';
  chave: string;
  tpEvento: TipoEventoRecebivel;
  /** nSeqEvento: 1 for most; the n-th correction letter. */
  seq: number;
  /** The authority that registered it (cOrgao: 91 is the national environment). */
  orgao: string;
  /** The author's CNPJ or CPF. */
  autor: string;
  /** ISO instants: when the author signed it (dhEvento) and when the Sefaz registered it (dhRegEvento). */
  dataEvento: string;
  registradoEm: string;
  /** The event's registration protocol (retEvento nProt). */
  protocolo: string;
  justificativa?: string;
  correcao?: string;
  entrega?: { data: string; documento: string; nome: string; latitude?: string; longitude?: string };
  protocoloEventoCancelado?: string;
}

const detalhe = z
  .object({
    descEvento: texto.optional(),
    xJust: texto.optional(),
    xCorrecao: texto.optional(),
    dhEntrega: instante.optional(),
    nDoc: texto.optional(),
    xNome: texto.optional(),
    latGPS: texto.optional(),
    longGPS: texto.optional(),
    nProtEvento: texto.optional(),
  })
  .loose();

const procEventoSchema = z.object({
  procEventoNFe: z.object({
    evento: z.object({
      infEvento: z
        .object({
          cOrgao: texto,
          tpAmb,
          CNPJ: texto.optional(),
          CPF: texto.optional(),
          chNFe: texto,
          dhEvento: instante,
          tpEvento: texto,
          nSeqEvento: z.string().regex(/^\d{1,2}$/, { error: 'nSeqEvento inválido' }),
          detEvento: detalhe,
        })
        .refine((e) => (e.CNPJ === undefined) !== (e.CPF === undefined), { error: 'o autor do evento precisa de CNPJ ou CPF' }),
    }),
    retEvento: z.object({ infEvento: z.object({ cStat: texto, nProt: texto.optional(), dhRegEvento: instante.optional() }) }),
  }),
});

/** What each kind requires of its detEvento: a missing field is a schema error of that document. */
function exigir<T>(valor: T | undefined, campo: string, nome: string): T {
  if (valor === undefined) throw invalido('EsquemaInvalido', 'esquemaInvalido', { schema: nome, detalhe: `detEvento/${campo} é obrigatório` });
  return valor;
}

export function eventoRecebivel(tree: unknown, nome: string): EventoRecebivel | Ignorado {
  const { procEventoNFe: p } = validar(procEventoSchema, tree, nome);
  const inf = p.evento.infEvento;
  const tpEvento = inf.tpEvento;
  if (!isEventoRecebivel(tpEvento)) return { kind: 'ignorado', reason: `evento ${tpEvento}` };
  chaveValida(inf.chNFe);
  const registro = p.retEvento.infEvento;
  if (!EVENTO_REGISTRADO.has(registro.cStat)) return { kind: 'ignorado', reason: `evento não registrado (cStat ${registro.cStat})` };
  if (!registro.nProt || !registro.dhRegEvento) {
    throw invalido('EventoSemRegistro', 'esquemaInvalido', { schema: nome, detalhe: 'o registro do evento (nProt e dhRegEvento) é obrigatório' });
  }
  ambienteAceito(inf.tpAmb, inf.chNFe);
  const d = inf.detEvento;
  const evento: EventoRecebivel = {
    kind: 'evento',
    chave: inf.chNFe,
    tpEvento,
    seq: Number(inf.nSeqEvento),
    orgao: inf.cOrgao,
    autor: inf.CNPJ ? cnpjValido(inf.CNPJ, 'do autor do evento') : cpfValido(inf.CPF ?? '', 'do autor do evento'),
    dataEvento: inf.dhEvento,
    registradoEm: registro.dhRegEvento,
    protocolo: registro.nProt,
  };
  switch (tpEvento) {
    case '210240':
      return { ...evento, justificativa: exigir(d.xJust, 'xJust', nome) };
    case '110110':
      return { ...evento, correcao: exigir(d.xCorrecao, 'xCorrecao', nome) };
    case '110130':
      return {
        ...evento,
        entrega: {
          data: exigir(d.dhEntrega, 'dhEntrega', nome),
          documento: exigir(d.nDoc, 'nDoc', nome),
          nome: exigir(d.xNome, 'xNome', nome),
          ...(d.latGPS ? { latitude: d.latGPS } : {}),
          ...(d.longGPS ? { longitude: d.longGPS } : {}),
        },
      };
    case '110131':
      return { ...evento, protocoloEventoCancelado: exigir(d.nProtEvento, 'nProtEvento', nome) };
    default:
      return evento;
  }
}
