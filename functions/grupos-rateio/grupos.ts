import { randomUUID } from 'node:crypto';
import type { Principal } from '@plac/shared/access';
import type { BodyOf, rateio } from '@plac/shared/contracts';
import {
  addDays,
  foldText,
  monthOf,
  nextMonth,
  previousMonth,
  situacaoGrupoRateio,
  TIPO_BENEFICIADO_CODIGO,
  TIPO_BENEFICIADO_LABEL,
  todayInBahia,
  UFS,
  validarGrupoRateio,
  type SituacaoGrupoRateio,
  type TipoBeneficiado,
} from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { conflict, invalid, notFound } from '../platform/errors';
import { conferirContiguidade, conferirLinhaDoTempo, mudarComReleitura, type Regras } from '../platform/linha-do-tempo';
import * as bancos from './bancos';
import * as store from './store';
import type { BeneficiadoRecord, GrupoRecord, HistoricoRecord, ParticipanteRecord, VersaoLinha } from './store';

/**
 * Sharing groups (spec 3, 2.3-2.5, 3.6-3.10, 4.2, 5.2; docs/repasse.md). A group is in force from a
 * business month to another; the groups form one timeline without gap or overlap. In month M a group
 * is VIGENTE (starts ≤ M, no end or ends ≥ M), ELABORACAO (starts after M; at most one) or DESATIVADO
 * (ended before M).
 * - Creating a group ends the current one at the chosen month (≥ M) and starts the new one the month
 *   after: always a draft. Changing the draft's start moves the current group's end; removing the
 *   draft takes the current group's end away again.
 * - A draft is fully editable. A group that has been in force keeps its start, SEFAZ percentage,
 *   beneficiaries and percentages (they decided how past months were shared): only its name, bank
 *   accounts and SEFAZ agreements change, each change in the group's history.
 * - Agreements: deactivating ends the SEFAZ beneficiary's period today; reactivating starts it today,
 *   up to the group's end. A month's repasse counts an agreement active on the month's last day.
 * Every change is one transaction conditioned on the timeline's revision, re-read when another won.
 */

type CreateBody = BodyOf<typeof rateio.createGrupo>;
type UpdateBody = BodyOf<typeof rateio.updateGrupo>;
type EntradaBeneficiado = CreateBody['beneficiados'][number] & { beneficiadoId?: string | null | undefined; excluir?: boolean | undefined };

const mesAtual = () => monthOf(new Date());
const primeiroDia = (mes: string) => `${mes}-01`;
const ultimoDia = (mes: string) => addDays(`${nextMonth(mes)}-01`, -1);

interface Estado {
  revisao: number | null;
  grupos: VersaoLinha[];
  itens: Map<string, GrupoRecord>;
}

async function ler(): Promise<Estado> {
  const linha = await store.lerLinha();
  const grupos = [...(linha?.grupos ?? [])].sort((a, b) => a.inicio.localeCompare(b.inicio));
  return { revisao: linha?.revisao ?? null, grupos, itens: await store.lerGrupos(grupos.map((g) => g.grupoRateioId)) };
}

const situacaoDe = (v: VersaoLinha, mes: string) => situacaoGrupoRateio(v.inicio, v.fim, mes);
const vigenteDe = (e: Estado, mes: string) => e.grupos.find((v) => situacaoDe(v, mes) === 'VIGENTE') ?? null;
const elaboracaoDe = (e: Estado, mes: string) => e.grupos.find((v) => situacaoDe(v, mes) === 'ELABORACAO') ?? null;

// ---- views ------------------------------------------------------------------------------------------

async function participantesPorId(): Promise<Map<string, ParticipanteRecord>> {
  return new Map((await store.listarParticipantes()).map((p) => [p.participanteId, p]));
}

function beneficiadoView(b: BeneficiadoRecord, g: GrupoRecord, ps: Map<string, ParticipanteRecord>, nomesBanco: Map<string, string>) {
  const p = ps.get(b.participanteId);
  return {
    idBeneficiado: b.beneficiadoId,
    idParticipante: b.participanteId,
    nomeParticipante: p?.nome ?? b.participanteId,
    tipo: b.tipo,
    tipoCodigo: TIPO_BENEFICIADO_CODIGO[b.tipo],
    sefaz: p?.sefaz ?? false,
    uf: p?.uf ?? null,
    percentualRateio: b.tipo === 'SEFAZ' ? g.percentualSefaz : b.percentual,
    vigenciaInicial: b.vigenciaInicial,
    vigenciaFinal: b.vigenciaFinal ?? null,
    convenioAtivo: b.tipo === 'SEFAZ' ? b.convenioAtivo : null,
    conta:
      b.banco && b.agencia && b.dvAgencia && b.conta && b.dvConta
        ? { banco: b.banco, agencia: b.agencia, dvAgencia: b.dvAgencia, conta: b.conta, dvConta: b.dvConta, contaAtiva: b.contaAtiva ?? true, nomeBanco: nomesBanco.get(b.banco) ?? null }
        : null,
  };
}

function resumo(e: Estado, v: VersaoLinha, mes: string) {
  const g = e.itens.get(v.grupoRateioId);
  if (!g) throw new Error(`sharing group ${v.grupoRateioId} has no item`);
  return { id: g.grupoRateioId, descricao: g.descricao, dtVigenciaInicial: v.inicio, dtVigenciaFinal: v.fim ?? null, situacao: situacaoDe(v, mes) };
}

async function grupoView(e: Estado, v: VersaoLinha, mes: string) {
  const g = e.itens.get(v.grupoRateioId)!;
  const [ps, todosBancos] = await Promise.all([participantesPorId(), bancos.listar()]);
  const nomesBanco = new Map(todosBancos.map((b) => [b.codigo, b.nome]));
  return {
    ...resumo(e, v, mes),
    percentualSefaz: g.percentualSefaz,
    revisao: e.revisao ?? 0,
    mesAtual: mes,
    beneficiados: g.beneficiados.map((b) => beneficiadoView(b, g, ps, nomesBanco)),
    createdBy: g.createdBy ?? null,
    updatedBy: g.updatedBy ?? null,
    createdAt: g.createdAt,
    updatedAt: g.updatedAt,
  };
}

export async function listar() {
  const e = await ler();
  const mes = mesAtual();
  return [...e.grupos].reverse().map((v) => resumo(e, v, mes));
}

export async function grupo(id: string) {
  const e = await ler();
  const v = e.grupos.find((x) => x.grupoRateioId === id);
  if (!v) throw notFound();
  return grupoView(e, v, mesAtual());
}

export async function vigente() {
  const e = await ler();
  const mes = mesAtual();
  const v = vigenteDe(e, mes);
  if (!v) throw notFound('semGrupoRateioVigente');
  return grupoView(e, v, mes);
}

export async function existeElaboracao(): Promise<[boolean]> {
  return [elaboracaoDe(await ler(), mesAtual()) !== null];
}

export async function desativado(id: string): Promise<[boolean]> {
  const e = await ler();
  const v = e.grupos.find((x) => x.grupoRateioId === id);
  if (!v) throw notFound();
  return [situacaoDe(v, mesAtual()) === 'DESATIVADO'];
}

export async function historico(id: string) {
  const e = await ler();
  if (!e.grupos.some((x) => x.grupoRateioId === id)) throw notFound();
  return (await store.lerHistorico(id)).map((h) => ({ em: h.em, por: h.por, acao: h.acao, detalhe: h.detalhe }));
}

export async function participantes() {
  return (await store.listarParticipantes())
    .map((p) => ({ id: p.participanteId, nome: p.nome, sefaz: p.sefaz, uf: p.uf ?? null }))
    .sort((a, b) => a.nome.localeCompare(b.nome, 'pt-BR'));
}

/** What the repasse needs for a month: the group in force then, with each beneficiary's agreement on the month's last day. */
export async function grupoDoMes(mes: string) {
  const e = await ler();
  const v = e.grupos.find((x) => x.inicio <= mes && (!x.fim || x.fim >= mes));
  const g = v && e.itens.get(v.grupoRateioId);
  if (!g) return null;
  const ps = await participantesPorId();
  const dia = ultimoDia(mes);
  return {
    grupoRateioId: g.grupoRateioId,
    descricao: g.descricao,
    percentualSefaz: g.percentualSefaz,
    beneficiados: g.beneficiados.map((b) => ({
      beneficiadoId: b.beneficiadoId,
      participanteId: b.participanteId,
      nome: ps.get(b.participanteId)?.nome ?? b.participanteId,
      tipo: b.tipo,
      uf: ps.get(b.participanteId)?.uf ?? null,
      percentual: b.tipo === 'SEFAZ' ? g.percentualSefaz : b.percentual,
      ativoNoMes: b.tipo !== 'SEFAZ' || (b.vigenciaInicial <= dia && (!b.vigenciaFinal || b.vigenciaFinal >= dia)),
      conta: b.banco && b.agencia && b.conta ? { banco: b.banco, agencia: b.agencia, dvAgencia: b.dvAgencia ?? '', conta: b.conta, dvConta: b.dvConta ?? '', contaAtiva: b.contaAtiva ?? true } : null,
    })),
  };
}

// ---- checks -----------------------------------------------------------------------------------------

/**
 * The timeline's rules (platform/linha-do-tempo.ts): a group that has been in force keeps its start;
 * only the current one's end may move, to this month or later.
 */
const REGRAS: Regras<VersaoLinha> = {
  id: (v) => v.grupoRateioId,
  erros: { vigencia: 'vigenciaRateioInvalida', imutavel: 'grupoRateioImutavel', fimDaVigente: 'vigenciaRateioInvalida', emElaboracao: 'grupoRateioEmElaboracao', alterada: 'grupoRateioAlterado' },
};

interface Plano {
  grupos: VersaoLinha[];
  gravar?: GrupoRecord[];
  remover?: string[];
  historico?: Omit<HistoricoRecord, 'em' | 'historicoId' | 'por'>[];
  participantes?: ParticipanteRecord[];
}

/** A change planned on a fresh read of the groups, checked and written (platform/linha-do-tempo.ts). */
async function mudar(p: Principal, plano: (e: Estado, mes: string, at: string) => Plano | Promise<Plano>): Promise<void> {
  await mudarComReleitura(async () => {
    const e = await ler();
    const mes = mesAtual();
    const at = new Date().toISOString();
    const m = await plano(e, mes, at);
    const grupos = conferirLinhaDoTempo(e.grupos, m.grupos, mes, REGRAS);
    const historicoRecords = (m.historico ?? []).map((h) => ({ ...h, em: at, historicoId: randomUUID(), por: p.name }));
    return store.gravar({ ...m, grupos, historico: historicoRecords, revisao: e.revisao, at, by: p.name });
  }, REGRAS.erros.alterada);
}

const comFim = (grupos: readonly VersaoLinha[], id: string | undefined, fim: string | undefined) =>
  grupos.map((v) => (v.grupoRateioId === id ? { ...v, fim } : v));

/**
 * The beneficiaries of a payload as records: existing participants by id (a SEFAZ beneficiary must be
 * a Sefaz participant), new participants by name (never SEFAZ; an existing non-Sefaz participant of
 * the same name is reused), accounts of registered banks, agreements dated (spec 3, 4.2).
 */
async function construir(
  entradas: readonly EntradaBeneficiado[],
  inicio: string,
  fim: string | undefined,
  antes: readonly BeneficiadoRecord[],
  p: Principal,
  at: string,
) {
  const [ps, todosBancos] = await Promise.all([store.listarParticipantes(), bancos.listar()]);
  const porId = new Map(ps.map((x) => [x.participanteId, x]));
  const porNome = new Map(ps.filter((x) => !x.sefaz).map((x) => [foldText(x.nome), x]));
  const codigos = new Set(todosBancos.map((b) => b.codigo));
  const antesPorId = new Map(antes.map((b) => [b.beneficiadoId, b]));
  const novos: ParticipanteRecord[] = [];
  const hoje = todayInBahia();
  const records: BeneficiadoRecord[] = [];
  for (const x of entradas.filter((y) => !y.excluir)) {
    let participanteId = x.idParticipante;
    if (participanteId) {
      const part = porId.get(participanteId);
      if (!part) throw invalid('participanteDesconhecido');
      if ((x.tipo === 'SEFAZ') !== part.sefaz) throw invalid('participanteNovoSefaz');
    } else {
      if (x.tipo === 'SEFAZ') throw invalid('participanteNovoSefaz');
      const nome = x.nomeParticipante.trim();
      if (!nome) throw invalid('participanteNomeObrigatorio');
      const existente = porNome.get(foldText(nome)) ?? novos.find((n) => foldText(n.nome) === foldText(nome));
      if (existente) participanteId = existente.participanteId;
      else {
        const novo = { participanteId: randomUUID(), nome, sefaz: false, createdAt: at, createdBy: p.name };
        novos.push(novo);
        participanteId = novo.participanteId;
      }
    }
    if (x.conta && !codigos.has(x.conta.banco)) throw invalid('bancoDesconhecido');
    const anterior = x.beneficiadoId ? antesPorId.get(x.beneficiadoId) : undefined;
    const ativo = x.tipo === 'SEFAZ' ? (x.convenioAtivo ?? anterior?.convenioAtivo ?? true) : true;
    let vigenciaInicial = anterior?.vigenciaInicial ?? primeiroDia(inicio);
    let vigenciaFinal = anterior ? anterior.vigenciaFinal : fim ? ultimoDia(fim) : undefined;
    if (anterior && anterior.tipo === 'SEFAZ' && anterior.convenioAtivo !== ativo) {
      if (!ativo) vigenciaFinal = hoje; // deactivated: the period ends today
      else {
        vigenciaInicial = hoje < primeiroDia(inicio) ? primeiroDia(inicio) : hoje; // reactivated: from today, to the group's end
        vigenciaFinal = fim ? ultimoDia(fim) : undefined;
      }
    } else if (!anterior && !ativo) {
      vigenciaFinal = addDays(primeiroDia(inicio), -1); // added without agreement: never active
    }
    records.push({
      beneficiadoId: anterior?.beneficiadoId ?? randomUUID(),
      participanteId,
      tipo: x.tipo,
      percentual: x.tipo === 'SEFAZ' ? 0 : x.percentualRateio,
      vigenciaInicial,
      ...(vigenciaFinal ? { vigenciaFinal } : {}),
      convenioAtivo: ativo,
      ...(x.conta
        ? { banco: x.conta.banco, agencia: x.conta.agencia, dvAgencia: x.conta.dvAgencia.toUpperCase(), conta: x.conta.conta, dvConta: x.conta.dvConta.toUpperCase(), contaAtiva: x.conta.contaAtiva }
        : {}),
    });
  }
  return { records, novos, nomes: new Map([...ps, ...novos].map((x) => [x.participanteId, x.nome])) };
}

function checarRegras(descricao: string, percentualSefaz: number, records: readonly BeneficiadoRecord[]) {
  const erro = validarGrupoRateio(
    descricao,
    percentualSefaz,
    records.map((b) => ({ tipo: b.tipo, idParticipante: b.participanteId, nomeParticipante: '', percentualRateio: b.tipo === 'SEFAZ' ? 0 : b.percentual, convenioAtivo: b.convenioAtivo })),
  );
  if (!erro) return;
  if (erro.erro === 'campoObrigatorio') throw invalid('campoObrigatorio', { field: erro.field });
  throw invalid(erro.erro);
}

const audit = (p: Principal, at: string, antes?: GrupoRecord) => ({
  createdAt: antes?.createdAt ?? at,
  createdBy: antes?.createdBy ?? p.name,
  updatedAt: at,
  updatedBy: p.name,
});

const rotulo = (t: TipoBeneficiado) => TIPO_BENEFICIADO_LABEL[t];
const periodo = (v: VersaoLinha) => `${v.inicio}${v.fim ? ` a ${v.fim}` : ' sem fim'}`;

// ---- changes ---------------------------------------------------------------------------------------

export async function criar(body: CreateBody, p: Principal): Promise<[boolean, string]> {
  const grupoRateioId = randomUUID();
  await mudar(p, async (e, mes, at) => {
    if (elaboracaoDe(e, mes)) throw conflict('grupoRateioEmElaboracao');
    const atual = vigenteDe(e, mes);
    if (atual) {
      const fimAtual = body.vigenciaFinalVigente;
      if (!fimAtual || fimAtual < mes || body.vigenciaInicial !== nextMonth(fimAtual)) throw invalid('vigenciaRateioInvalida');
    } else {
      const ultima = e.grupos.at(-1);
      if (body.vigenciaInicial <= mes || (ultima && (!ultima.fim || body.vigenciaInicial !== nextMonth(ultima.fim)))) throw invalid('vigenciaRateioInvalida');
    }
    const { records, novos, nomes } = await construir(body.beneficiados, body.vigenciaInicial, undefined, [], p, at);
    checarRegras(body.descricao, body.percentualSefaz, records);
    const novo: VersaoLinha = { grupoRateioId, inicio: body.vigenciaInicial };
    const historico: Plano['historico'] = [
      {
        grupoRateioId,
        acao: 'Cadastro',
        detalhe: `Grupo '${body.descricao.trim()}' a partir de ${body.vigenciaInicial}, SEFAZ ${body.percentualSefaz}%; beneficiados: ${records
          .map((b) => `${nomes.get(b.participanteId)} (${rotulo(b.tipo)}${b.tipo === 'SEFAZ' ? '' : `, ${b.percentual}%`})`)
          .join('; ')}`,
      },
    ];
    if (atual) historico.push({ grupoRateioId: atual.grupoRateioId, acao: 'Vigência final', detalhe: `Vigência final definida em ${body.vigenciaFinalVigente}` });
    return {
      grupos: [...comFim(e.grupos, atual?.grupoRateioId, atual ? (body.vigenciaFinalVigente ?? undefined) : undefined), novo],
      gravar: [{ grupoRateioId, descricao: body.descricao.trim(), percentualSefaz: body.percentualSefaz, beneficiados: records, ...audit(p, at) }],
      participantes: novos,
      historico,
    };
  });
  return [true, message('grupoRateioCadastrado')];
}

export async function atualizar(body: UpdateBody, p: Principal): Promise<[boolean, string]> {
  const g = body.grupoRateio;
  await mudar(p, async (e, mes, at) => {
    if (g.revisao !== undefined && g.revisao !== (e.revisao ?? 0)) throw conflict('grupoRateioAlterado');
    const alvo = e.grupos.find((v) => v.grupoRateioId === g.idGrupoRateio);
    const antes = e.itens.get(g.idGrupoRateio);
    if (!alvo || !antes) throw notFound();
    const situacao: SituacaoGrupoRateio = situacaoDe(alvo, mes);
    if (situacao === 'DESATIVADO') throw invalid('grupoRateioImutavel');
    const historico: NonNullable<Plano['historico']> = [];
    let grupos = e.grupos;
    let inicio = alvo.inicio;
    if (situacao === 'ELABORACAO') {
      inicio = g.vigenciaInicial;
      if (inicio <= mes) throw invalid('vigenciaRateioInvalida');
      if (inicio !== alvo.inicio) {
        const anterior = e.grupos[e.grupos.indexOf(alvo) - 1];
        grupos = e.grupos.map((v) => (v === alvo ? { ...v, inicio } : v === anterior ? { ...v, fim: previousMonth(inicio) } : v));
        historico.push({ grupoRateioId: alvo.grupoRateioId, acao: 'Vigência inicial', detalhe: `De ${alvo.inicio} para ${inicio}` });
        if (anterior) historico.push({ grupoRateioId: anterior.grupoRateioId, acao: 'Vigência final', detalhe: `De ${anterior.fim ?? 'sem fim'} para ${previousMonth(inicio)}` });
      }
    } else {
      // In force: start, SEFAZ percentage, the beneficiaries and their percentages stay as they are.
      const mantidos = body.beneficiados.filter((b) => !b.excluir);
      const mesmos =
        g.vigenciaInicial === alvo.inicio &&
        g.percentualSefaz === antes.percentualSefaz &&
        mantidos.length === antes.beneficiados.length &&
        body.beneficiados.length === antes.beneficiados.length &&
        mantidos.every((b) => {
          const a = antes.beneficiados.find((x) => x.beneficiadoId === b.beneficiadoId);
          return a && a.participanteId === b.idParticipante && a.tipo === b.tipo && (a.tipo === 'SEFAZ' || a.percentual === b.percentualRateio);
        });
      if (!mesmos) throw invalid('grupoRateioImutavel');
    }
    const fimAtual = grupos.find((v) => v.grupoRateioId === alvo.grupoRateioId)!.fim;
    const { records, novos, nomes } = await construir(body.beneficiados, inicio, fimAtual, antes.beneficiados, p, at);
    checarRegras(g.descricao, g.percentualSefaz, records);
    if (g.descricao.trim() !== antes.descricao) historico.push({ grupoRateioId: alvo.grupoRateioId, acao: 'Nome', detalhe: `De '${antes.descricao}' para '${g.descricao.trim()}'` });
    if (g.percentualSefaz !== antes.percentualSefaz) historico.push({ grupoRateioId: alvo.grupoRateioId, acao: 'Percentual SEFAZ', detalhe: `De ${antes.percentualSefaz}% para ${g.percentualSefaz}%` });
    for (const b of records) {
      const a = antes.beneficiados.find((x) => x.beneficiadoId === b.beneficiadoId);
      const nome = nomes.get(b.participanteId) ?? b.participanteId;
      if (!a) historico.push({ grupoRateioId: alvo.grupoRateioId, acao: 'Beneficiado incluído', detalhe: `${nome} (${rotulo(b.tipo)}${b.tipo === 'SEFAZ' ? '' : `, ${b.percentual}%`})` });
      else {
        if (a.tipo !== 'SEFAZ' && a.percentual !== b.percentual) historico.push({ grupoRateioId: alvo.grupoRateioId, acao: 'Percentual', detalhe: `${nome}: de ${a.percentual}% para ${b.percentual}%` });
        if (a.convenioAtivo !== b.convenioAtivo)
          historico.push({ grupoRateioId: alvo.grupoRateioId, acao: b.convenioAtivo ? 'Convênio reativado' : 'Convênio desativado', detalhe: `${nome}: vigência ${b.vigenciaInicial} a ${b.vigenciaFinal ?? 'sem fim'}` });
        const conta = (x: BeneficiadoRecord) => (x.banco ? `${x.banco} ag. ${x.agencia}-${x.dvAgencia} c/c ${x.conta}-${x.dvConta}${x.contaAtiva === false ? ' (inativa)' : ''}` : 'sem conta');
        if (conta(a) !== conta(b)) historico.push({ grupoRateioId: alvo.grupoRateioId, acao: 'Dados bancários', detalhe: `${nome}: de ${conta(a)} para ${conta(b)}` });
      }
    }
    for (const a of antes.beneficiados.filter((x) => !records.some((b) => b.beneficiadoId === x.beneficiadoId))) {
      historico.push({ grupoRateioId: alvo.grupoRateioId, acao: 'Beneficiado removido', detalhe: nomes.get(a.participanteId) ?? a.participanteId });
    }
    return {
      grupos,
      gravar: [{ grupoRateioId: alvo.grupoRateioId, descricao: g.descricao.trim(), percentualSefaz: g.percentualSefaz, beneficiados: records, ...audit(p, at, antes) }],
      participantes: novos,
      historico,
    };
  });
  return [true, message('grupoRateioAtualizado')];
}

export async function removerElaboracao(p: Principal): Promise<[boolean, string]> {
  await mudar(p, (e, mes) => {
    const draft = elaboracaoDe(e, mes);
    if (!draft) throw notFound('semGrupoRateioElaboracao');
    const anterior = e.grupos[e.grupos.indexOf(draft) - 1];
    return {
      grupos: comFim(
        e.grupos.filter((v) => v !== draft),
        anterior?.grupoRateioId,
        undefined,
      ),
      remover: [draft.grupoRateioId],
      historico: anterior ? [{ grupoRateioId: anterior.grupoRateioId, acao: 'Vigência final', detalhe: `Grupo em elaboração (${periodo(draft)}) removido: sem vigência final` }] : [],
    };
  });
  return [true, message('grupoRateioElaboracaoRemovido')];
}

// ---- demo data -------------------------------------------------------------------------------------

/** The Sefaz of every UF as participants (ids `sefaz-<UF>`), for the seed of the twin and of a deployment. */
export function participantesSefaz(at: string, by: string): ParticipanteRecord[] {
  return UFS.map((u) => ({ participanteId: `sefaz-${u.uf}`, nome: `SEFAZ ${u.uf}`, sefaz: true, uf: u.uf, createdAt: at, createdBy: by }));
}

export interface GrupoDemo {
  id: string;
  descricao: string;
  inicio: string;
  fim?: string;
  percentualSefaz: number;
  beneficiados: { participanteId: string; nome?: string; tipo: TipoBeneficiado; percentual: number; convenioAtivo?: boolean; conta?: { banco: string; agencia: string; dvAgencia: string; conta: string; dvConta: string } }[];
}

/** The 27 SEFAZ participants, those absent: the deploy's seed (functions/grupos-rateio/semente.ts). */
export async function semearParticipantesSefaz(by: string): Promise<void> {
  await store.semearParticipantes(participantesSefaz(new Date().toISOString(), by));
}

/** The twin's demo groups, written once: nothing when a timeline exists. */
export async function semearDemo(grupos: readonly GrupoDemo[], by: string): Promise<boolean> {
  const at = new Date().toISOString();
  const extras = grupos.flatMap((g) => g.beneficiados.filter((b) => b.nome).map((b) => ({ participanteId: b.participanteId, nome: b.nome!, sefaz: false, createdAt: at, createdBy: by })));
  await store.semearParticipantes([...participantesSefaz(at, by), ...extras]);
  if (await store.lerLinha()) return false;
  const linhas = grupos.map((g) => ({ grupoRateioId: g.id, inicio: g.inicio, ...(g.fim ? { fim: g.fim } : {}) }));
  conferirContiguidade(linhas, REGRAS.erros.vigencia);
  const records = grupos.map((g) => ({
    grupoRateioId: g.id,
    descricao: g.descricao,
    percentualSefaz: g.percentualSefaz,
    beneficiados: g.beneficiados.map((b, i) => ({
      beneficiadoId: `${g.id}-b${i + 1}`,
      participanteId: b.participanteId,
      tipo: b.tipo,
      percentual: b.tipo === 'SEFAZ' ? 0 : b.percentual,
      vigenciaInicial: primeiroDia(g.inicio),
      // Without an agreement from the start: a period that ends before the group begins.
      ...(b.convenioAtivo === false ? { vigenciaFinal: addDays(primeiroDia(g.inicio), -1) } : g.fim ? { vigenciaFinal: ultimoDia(g.fim) } : {}),
      convenioAtivo: b.convenioAtivo ?? true,
      ...(b.conta ? { ...b.conta, contaAtiva: true } : {}),
    })),
    createdAt: at,
    updatedAt: at,
    createdBy: by,
    updatedBy: by,
  }));
  return store.gravar({ revisao: null, grupos: linhas, gravar: records, historico: grupos.map((g) => ({ grupoRateioId: g.id, em: at, historicoId: randomUUID(), por: by, acao: 'Cadastro', detalhe: `Grupo '${g.descricao}' (dados de demonstração)` })), at, by });
}
