/**
 * The receivable's evidence (docs/recebivel.md): what the NF-e events, the returns, the CT-e and the
 * registered assignments of one access key say about whether a funder can advance money on it.
 * Pure: the Fat-e context gathers the facts, the look-ups (functions/consulta) answer them through
 * `avaliarEvidencia`, and the portal uses the same descriptions. Values in centavos.
 */
import { formatCnpj } from './cnpj';

/** The NF-e events the platform keeps beside the cancellation (110111), and their names. */
export const EVENTOS_RECEBIVEL = {
  '210200': 'Confirmação da Operação',
  '210210': 'Ciência da Operação',
  '210220': 'Desconhecimento da Operação',
  '210240': 'Operação não Realizada',
  '110130': 'Comprovante de Entrega',
  '110131': 'Cancelamento do Comprovante de Entrega',
  '110110': 'Carta de Correção',
} as const;
export type TipoEventoRecebivel = keyof typeof EVENTOS_RECEBIVEL;

/** Each event's descEvento as the layouts require it (no accents): the simulator and the tests' documents write it. */
export const DESC_EVENTO_LAYOUT: Readonly<Record<TipoEventoRecebivel, string>> = {
  '210200': 'Confirmacao da Operacao',
  '210210': 'Ciencia da Operacao',
  '210220': 'Desconhecimento da Operacao',
  '210240': 'Operacao nao Realizada',
  '110130': 'Comprovante de Entrega da NF-e',
  '110131': 'Cancelamento Comprovante de Entrega da NF-e',
  '110110': 'Carta de Correcao',
};

export function isEventoRecebivel(tpEvento: string): tpEvento is TipoEventoRecebivel {
  return Object.hasOwn(EVENTOS_RECEBIVEL, tpEvento);
}

/** The recipient's manifestation (Manifestação do Destinatário): a later one replaces an earlier one. */
export const MANIFESTACOES = ['210200', '210210', '210220', '210240'] as const;
export type TipoManifestacao = (typeof MANIFESTACOES)[number];
const ehManifestacao = (e: EventoDaChave): e is EventoDaChave & { tpEvento: TipoManifestacao } => (MANIFESTACOES as readonly string[]).includes(e.tpEvento);
/** The manifestations that conclude the operation (Ciência only says the recipient knows of the NF-e). */
const CONCLUSIVAS = new Set<string>(['210200', '210220', '210240']);

/** Every event's name, the cancellation's included (webhook bodies, timeline). */
export const DESCRICAO_EVENTO_NFE: Readonly<Record<string, string>> = { '110111': 'Cancelamento', ...EVENTOS_RECEBIVEL };

/**
 * The flags of an evidence answer, each with the rule that raises it (the OpenAPI description, the
 * CSV's legend and docs/recebivel.md say these words).
 */
export const FLAGS_EVIDENCIA = {
  CANCELADA: 'O emitente cancelou a NF-e (evento 110111 registrado).',
  SEM_MANIFESTACAO: 'O destinatário não registrou manifestação (210200, 210210, 210220 ou 210240).',
  CIENCIA_SEM_CONFIRMACAO: 'A manifestação vigente é só a Ciência da Operação (210210): o destinatário conhece a NF-e, mas não confirmou a operação.',
  CONFIRMADA_PELO_DESTINATARIO: 'A manifestação vigente é a Confirmação da Operação (210200).',
  DESCONHECIDA_PELO_DESTINATARIO: 'A manifestação vigente é o Desconhecimento da Operação (210220): o destinatário diz não reconhecer a venda.',
  OPERACAO_NAO_REALIZADA: 'A manifestação vigente é Operação não Realizada (210240), com a justificativa do destinatário.',
  MANIFESTACAO_ALTERADA: 'O destinatário registrou manifestações conclusivas diferentes ao longo do tempo (por exemplo, confirmou e depois desconheceu).',
  ENTREGA_COMPROVADA: 'Há Comprovante de Entrega (110130) registrado e não cancelado por um 110131.',
  DEVOLVIDA: 'NF-e de devolução (finalidade 4) que referenciam esta chave somam o valor da nota ou mais.',
  DEVOLVIDA_PARCIAL: 'NF-e de devolução que referenciam esta chave somam parte do valor da nota.',
  CTE_VINCULADO: 'Ao menos um CT-e não cancelado transporta esta NF-e.',
  CARTA_CORRECAO: 'O emitente registrou Carta de Correção (110110).',
  PARCELA_CEDIDA: 'Ao menos uma parcela tem registro de cessão.',
  PARCELA_VENCIDA: 'Ao menos uma parcela de uma Fat-e ativa venceu antes de hoje (horário da Bahia).',
} as const;
export type FlagEvidencia = keyof typeof FLAGS_EVIDENCIA;
export const FLAGS: readonly FlagEvidencia[] = Object.keys(FLAGS_EVIDENCIA) as FlagEvidencia[];

/** A stored event of the key, as the Fat-e context keeps it. */
export interface EventoDaChave {
  tpEvento: TipoEventoRecebivel;
  /** nSeqEvento. */
  seq: number;
  /** When the author signed it (dhEvento) and when the Sefaz registered it (dhRegEvento), ISO instants. */
  dataEvento: string;
  registradoEm: string;
  protocolo: string;
  /** The author's CNPJ or CPF (infEvento CNPJ/CPF). */
  autor: string;
  justificativa?: string | undefined;
  correcao?: string | undefined;
  entrega?: { data: string; documento: string; nome: string; latitude?: string | undefined; longitude?: string | undefined } | undefined;
  /** 110131: the protocol of the delivery proof it cancels. */
  protocoloEventoCancelado?: string | undefined;
}

/** An NF-e of return (finNFe 4) or a CT-e naming the key, with whether its own cancellation is registered. */
export interface DocumentoVinculado {
  chave: string;
  emitente: { documento: string; nome: string };
  emissao: string;
  /** A return's vNF; a CT-e's service value. */
  valor: number;
  cancelado: boolean;
}

export interface ParcelaComCessao {
  numero: string;
  vencimento: string;
  valor: number;
  cessao: { cnpjCessionario: string; dataCessao: string; valor: number; registradaEm: string } | null;
}

export interface FatosDaChave {
  situacao: 'ATIVA' | 'CANCELADA';
  emissao: string;
  /** When the Sefaz authorised it (protNFe dhRecbto), when kept. */
  autorizadaEm?: string | undefined;
  valorNota: number;
  valorLiquido: number;
  cancelamento: { data: string; protocolo: string } | null;
  parcelas: readonly ParcelaComCessao[];
  eventos: readonly EventoDaChave[];
  devolucoes: readonly DocumentoVinculado[];
  ctes: readonly DocumentoVinculado[];
}

export type EtapaLinhaDoTempo = 'EMITIDA' | 'AUTORIZADA' | 'MANIFESTADA' | 'TRANSPORTADA' | 'ENTREGUE' | 'ENTREGA_CANCELADA' | 'CORRIGIDA' | 'CEDIDA' | 'DEVOLVIDA' | 'CANCELADA';

export interface MarcoLinhaDoTempo {
  data: string;
  etapa: EtapaLinhaDoTempo;
  descricao: string;
}

const porData = <T>(data: (x: T) => string) => (a: T, b: T) => (data(a) < data(b) ? -1 : data(a) > data(b) ? 1 : 0);
/** The order events happened: the author's instant, then the registration (same instant: the later registration wins). */
const ordemDosEventos = (a: EventoDaChave, b: EventoDaChave) => porData<EventoDaChave>((e) => e.dataEvento)(a, b) || porData<EventoDaChave>((e) => e.registradoEm)(a, b) || a.seq - b.seq;

function reais(centavos: number): string {
  const s = (Math.abs(centavos) / 100).toFixed(2).split('.');
  return `R$ ${s[0]!.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${s[1]}`;
}

/**
 * The evidence answer's rules: the current manifestation (the latest; every one stays in the
 * history), the delivery proof not cancelled, the returns not cancelled (their values taken off the
 * bill's net value, never below zero), the CT-e not cancelled, each instalment's state as of `hoje`
 * (Bahia day, 'YYYY-MM-DD') with its assignment, the flags (FLAGS_EVIDENCIA) and the timeline.
 */
export function avaliarEvidencia(f: FatosDaChave, hoje: string) {
  const eventos = [...f.eventos].sort(ordemDosEventos);
  const manifestacoes = eventos.filter(ehManifestacao);
  const vigente = manifestacoes.at(-1) ?? null;
  const cancelados = new Set(eventos.filter((e) => e.tpEvento === '110131').map((e) => e.protocoloEventoCancelado));
  const entregas = eventos.filter((e) => e.tpEvento === '110130');
  const entrega = entregas.filter((e) => !cancelados.has(e.protocolo)).at(-1) ?? null;
  const correcoes = eventos.filter((e) => e.tpEvento === '110110');
  const devolucoesValidas = f.devolucoes.filter((d) => !d.cancelado);
  const valorDevolvido = devolucoesValidas.reduce((s, d) => s + d.valor, 0);
  const ctesValidos = f.ctes.filter((c) => !c.cancelado);
  const parcelas = f.parcelas.map((p) => ({
    ...p,
    situacao: (f.situacao === 'CANCELADA' ? 'CANCELADA' : p.vencimento < hoje ? 'VENCIDA' : 'A_VENCER') as 'A_VENCER' | 'VENCIDA' | 'CANCELADA',
  }));

  const flags = new Set<FlagEvidencia>();
  if (f.situacao === 'CANCELADA') flags.add('CANCELADA');
  if (!vigente) flags.add('SEM_MANIFESTACAO');
  else if (vigente.tpEvento === '210210') flags.add('CIENCIA_SEM_CONFIRMACAO');
  else if (vigente.tpEvento === '210200') flags.add('CONFIRMADA_PELO_DESTINATARIO');
  else if (vigente.tpEvento === '210220') flags.add('DESCONHECIDA_PELO_DESTINATARIO');
  else if (vigente.tpEvento === '210240') flags.add('OPERACAO_NAO_REALIZADA');
  if (new Set(manifestacoes.filter((m) => CONCLUSIVAS.has(m.tpEvento)).map((m) => m.tpEvento)).size > 1) flags.add('MANIFESTACAO_ALTERADA');
  if (entrega) flags.add('ENTREGA_COMPROVADA');
  if (valorDevolvido > 0) flags.add(valorDevolvido >= f.valorNota ? 'DEVOLVIDA' : 'DEVOLVIDA_PARCIAL');
  if (ctesValidos.length > 0) flags.add('CTE_VINCULADO');
  if (correcoes.length > 0) flags.add('CARTA_CORRECAO');
  if (parcelas.some((p) => p.cessao)) flags.add('PARCELA_CEDIDA');
  if (parcelas.some((p) => p.situacao === 'VENCIDA')) flags.add('PARCELA_VENCIDA');

  const linhaDoTempo: MarcoLinhaDoTempo[] = [
    { data: f.emissao, etapa: 'EMITIDA' as const, descricao: 'NF-e emitida' },
    ...(f.autorizadaEm ? [{ data: f.autorizadaEm, etapa: 'AUTORIZADA' as const, descricao: 'Uso autorizado pela Sefaz' }] : []),
    ...eventos.map((e): MarcoLinhaDoTempo => {
      const nome = EVENTOS_RECEBIVEL[e.tpEvento];
      if (ehManifestacao(e)) return { data: e.dataEvento, etapa: 'MANIFESTADA', descricao: `${nome}${e.justificativa ? `: ${e.justificativa}` : ''}` };
      if (e.tpEvento === '110130') return { data: e.entrega?.data ?? e.dataEvento, etapa: 'ENTREGUE', descricao: `${nome}${e.entrega ? ` (recebido por ${e.entrega.nome})` : ''}` };
      if (e.tpEvento === '110131') return { data: e.dataEvento, etapa: 'ENTREGA_CANCELADA', descricao: nome };
      return { data: e.dataEvento, etapa: 'CORRIGIDA', descricao: `${nome} nº ${e.seq}` };
    }),
    ...f.ctes.map((c): MarcoLinhaDoTempo => ({ data: c.emissao, etapa: 'TRANSPORTADA', descricao: `CT-e ${c.chave} de ${c.emitente.nome}${c.cancelado ? ' (cancelado)' : ''}` })),
    ...parcelas.flatMap((p): MarcoLinhaDoTempo[] =>
      p.cessao ? [{ data: p.cessao.registradaEm, etapa: 'CEDIDA', descricao: `Parcela ${p.numero} cedida a ${formatCnpj(p.cessao.cnpjCessionario)}` }] : [],
    ),
    ...f.devolucoes.map((d): MarcoLinhaDoTempo => ({ data: d.emissao, etapa: 'DEVOLVIDA', descricao: `Devolução de ${reais(d.valor)} (NF-e ${d.chave})${d.cancelado ? ' (cancelada)' : ''}` })),
    ...(f.cancelamento ? [{ data: f.cancelamento.data, etapa: 'CANCELADA' as const, descricao: 'NF-e cancelada pelo emitente' }] : []),
  ].sort(porData((m) => m.data));

  const manifestacao = (e: EventoDaChave & { tpEvento: TipoManifestacao }) => ({
    tpEvento: e.tpEvento,
    descricao: EVENTOS_RECEBIVEL[e.tpEvento],
    data: e.dataEvento,
    registradaEm: e.registradoEm,
    protocolo: e.protocolo,
    autor: e.autor,
    justificativa: e.justificativa ?? null,
  });
  return {
    manifestacao: vigente ? manifestacao(vigente) : null,
    manifestacoes: manifestacoes.map(manifestacao),
    entrega: entrega?.entrega
      ? {
          data: entrega.entrega.data,
          documentoRecebedor: entrega.entrega.documento,
          nomeRecebedor: entrega.entrega.nome,
          latitude: entrega.entrega.latitude ?? null,
          longitude: entrega.entrega.longitude ?? null,
          protocolo: entrega.protocolo,
          registradaEm: entrega.registradoEm,
        }
      : null,
    correcoes: correcoes.map((c) => ({ seq: c.seq, data: c.dataEvento, texto: c.correcao ?? '' })),
    devolucoes: [...f.devolucoes].sort(porData((d) => d.emissao)),
    valorDevolvido,
    valorLiquidoAposDevolucoes: Math.max(0, f.valorLiquido - valorDevolvido),
    ctes: [...f.ctes].sort(porData((c) => c.emissao)),
    parcelas,
    flags: FLAGS.filter((flag) => flags.has(flag)),
    linhaDoTempo,
  };
}
export type Evidencia = ReturnType<typeof avaliarEvidencia>;
