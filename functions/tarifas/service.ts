import { randomUUID } from 'node:crypto';
import type { Principal } from '@plac/shared/access';
import type { BodyOf, tarifas } from '@plac/shared/contracts';
import {
  asCentavos,
  asMilesimos,
  intervaloFaixa,
  monthOf,
  nextMonth,
  nomeFaixa,
  previousMonth,
  tipoVersao,
  validarFaixas,
  type Milesimos,
  type TabelaPreco,
} from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import * as servicos from '../servicos';
import { conflict, invalid, notFound } from '../platform/errors';
import { conferirContiguidade, conferirLinhaDoTempo, mudarComReleitura, type Regras } from '../platform/linha-do-tempo';
import * as store from './store';
import type { GrupoFaixaRecord, GrupoTarifaRecord, Linha, VersaoLinha } from './store';

/**
 * The rules of bands and tariffs (spec 3, 4.1 and 5.1; docs/tarifas.md). A version (tarifação) is a
 * (band group, tariff group) pair with a validity in the timeline. In month M:
 * - VIGENTE: starts ≤ M and has no end or ends ≥ M; HISTORICO: ended before M; ELABORACAO: starts
 *   after M — at most one ('Já existe uma tarifação em elaboração.').
 * - Creating a new group (or a new tariff on the current bands) ends the current version at the
 *   chosen month (≥ M) and starts the new one the next month: always a draft.
 * - Changing the draft's start moves the current version's end to the month before; removing the
 *   draft takes the current version's end away again.
 * - A version that has been in force is never written again: only the current version's end moves,
 *   and only to M or later (checked on every change, `assertPassadoIntacto`).
 * The timeline has no gap and no overlap (`assertContigua`), and every change is one transaction
 * conditioned on the timeline's revision, read again and re-checked when another change won.
 */

type CreateBody = BodyOf<typeof tarifas.createFaixas>;
type CreateTarifaBody = BodyOf<typeof tarifas.createTarifa>;
type UpdateBody = BodyOf<typeof tarifas.updateFaixas>;
type FaixaBody = CreateBody['faixa'];
type TarifaEntrada = CreateBody['tarifa']['tarifas'];

const mesAtual = () => monthOf(new Date());

interface Estado {
  revisao: number | null;
  versoes: VersaoLinha[];
  faixas: Map<string, GrupoFaixaRecord>;
  tarifas: Map<string, GrupoTarifaRecord>;
}

async function ler(): Promise<Estado> {
  const linha: Linha | null = await store.lerLinha();
  const versoes = [...(linha?.versoes ?? [])].sort((a, b) => a.inicio.localeCompare(b.inicio));
  const [faixas, tarifas] = await Promise.all([
    store.lerGruposFaixa(versoes.map((v) => v.grupoFaixaId)),
    store.lerGruposTarifa(versoes.map((v) => v.grupoTarifaId)),
  ]);
  return { revisao: linha?.revisao ?? null, versoes, faixas, tarifas };
}

const tipoDe = (v: VersaoLinha, mes: string) => tipoVersao(v.inicio, v.fim, mes);
const vigenteDe = (e: Estado, mes: string) => e.versoes.find((v) => tipoDe(v, mes) === 'VIGENTE') ?? null;
const elaboracaoDe = (e: Estado, mes: string) => e.versoes.find((v) => tipoDe(v, mes) === 'ELABORACAO') ?? null;

// ---- views ------------------------------------------------------------------------------------------

type Catalogo = { id: number; descricao: string }[];

async function catalogo(): Promise<Catalogo> {
  return (await servicos.todos()).map((s) => ({ id: s.idModuloServico, descricao: s.descricao }));
}

function versaoView(e: Estado, v: VersaoLinha, mes: string, servs: Catalogo) {
  const gf = e.faixas.get(v.grupoFaixaId);
  const gt = e.tarifas.get(v.grupoTarifaId);
  if (!gf || !gt) throw new Error(`tariff version ${v.grupoFaixaId}/${v.grupoTarifaId} has no items`);
  const doGrupo = e.versoes.filter((x) => x.grupoFaixaId === v.grupoFaixaId);
  const ultima = doGrupo.at(-1)!;
  const faixas = gf.faixas.map((f, i) => ({
    faixaId: f.faixaId,
    faixa: nomeFaixa(i + 1),
    qtdMinima: f.qtdMinima,
    qtdMaxima: f.qtdMaxima ?? null,
    intervalo: intervaloFaixa({ qtdMinima: f.qtdMinima, qtdMaxima: f.qtdMaxima ?? null }),
  }));
  const valor = new Map(gt.valores.map((x) => [`${x.servId}|${x.faixaId}`, x.valor]));
  return {
    tipo: tipoDe(v, mes),
    grupoFaixa: {
      id: gf.grupoFaixaId,
      descricao: gf.descricao,
      dtVigenciaInicial: doGrupo[0]!.inicio,
      dtVigenciaFinal: ultima.fim ?? null,
      faixaPromocionalId: gf.faixaPromocionalId ?? null,
      faixas,
      desativado: doGrupo.every((x) => tipoDe(x, mes) === 'HISTORICO'),
      createdBy: gf.createdBy ?? null,
      updatedBy: gf.updatedBy ?? null,
      createdAt: gf.createdAt,
      updatedAt: gf.updatedAt,
    },
    grupoTarifa: {
      id: gt.grupoTarifaId,
      grupoFaixaId: gt.grupoFaixaId,
      descricao: gt.descricao,
      assinatura: gt.assinatura,
      dtVigenciaInicial: v.inicio,
      dtVigenciaFinal: v.fim ?? null,
      rows: servs.map((s) => ({
        servId: s.id,
        serv: s.descricao,
        valores: faixas.map((f) => ({ idFaixa: f.faixaId, valor: valor.get(`${s.id}|${f.faixaId}`) ?? 0 })),
      })),
      createdBy: gt.createdBy ?? null,
      updatedBy: gt.updatedBy ?? null,
      createdAt: gt.createdAt,
      updatedAt: gt.updatedAt,
    },
  };
}

export async function tarifacao() {
  const mes = mesAtual();
  const [e, servs] = await Promise.all([ler(), catalogo()]);
  const view = (v: VersaoLinha) => versaoView(e, v, mes, servs);
  const vigente = vigenteDe(e, mes);
  const elaboracao = elaboracaoDe(e, mes);
  return {
    mesAtual: mes,
    revisao: e.revisao ?? 0,
    vigente: vigente ? view(vigente) : null,
    elaboracao: elaboracao ? view(elaboracao) : null,
    historico: e.versoes.filter((v) => tipoDe(v, mes) === 'HISTORICO').reverse().map(view),
    novoPermitido: !elaboracao && !vigente?.fim,
  };
}

export async function vigente() {
  const mes = mesAtual();
  const [e, servs] = await Promise.all([ler(), catalogo()]);
  const v = vigenteDe(e, mes);
  if (!v) throw notFound('semTarifacaoVigente');
  return versaoView(e, v, mes, servs);
}

export async function versao(idGrupoFaixa: string, idGrupoTarifa: string) {
  const [e, servs] = await Promise.all([ler(), catalogo()]);
  const v = e.versoes.find((x) => x.grupoFaixaId === idGrupoFaixa && x.grupoTarifaId === idGrupoTarifa);
  if (!v) throw notFound();
  return versaoView(e, v, mesAtual(), servs);
}

export async function desativado(grupoFaixaId: string): Promise<[boolean]> {
  const e = await ler();
  const mes = mesAtual();
  const doGrupo = e.versoes.filter((v) => v.grupoFaixaId === grupoFaixaId);
  if (doGrupo.length === 0) throw notFound();
  return [doGrupo.every((v) => tipoDe(v, mes) === 'HISTORICO')];
}

export async function existeElaboracao(): Promise<[boolean]> {
  return [elaboracaoDe(await ler(), mesAtual()) !== null];
}

export const servicosDaGrade = catalogo;

/**
 * What the price rule (precificar, @plac/shared/domain) needs for a business month: the version in
 * force in that month, or null when none was. For billing, the projected bill and the invoice detail.
 */
export async function tabelaPrecoDoMes(mes: string): Promise<TabelaPreco | null> {
  const e = await ler();
  const v = e.versoes.find((x) => x.inicio <= mes && (!x.fim || x.fim >= mes));
  const gf = v && e.faixas.get(v.grupoFaixaId);
  const gt = v && e.tarifas.get(v.grupoTarifaId);
  if (!gf || !gt) return null;
  const valores = new Map<number, Map<string, Milesimos>>();
  for (const x of gt.valores) {
    const porFaixa = valores.get(x.servId) ?? new Map<string, Milesimos>();
    porFaixa.set(x.faixaId, asMilesimos(x.valor));
    valores.set(x.servId, porFaixa);
  }
  return {
    faixas: gf.faixas.map((f) => ({ faixaId: f.faixaId, qtdMinima: f.qtdMinima, qtdMaxima: f.qtdMaxima ?? null })),
    faixaPromocionalId: gf.faixaPromocionalId ?? null,
    assinatura: asCentavos(gt.assinatura),
    valores,
  };
}

// ---- checks -----------------------------------------------------------------------------------------

/** The bands kept (those not flagged excluir), their positions in the payload, and the rule's check. */
function faixasDoCorpo(faixa: FaixaBody) {
  const mantidas = faixa.faixas.map((f, posicao) => ({ ...f, posicao })).filter((f) => !f.excluir);
  const erro = validarFaixas(mantidas);
  if (erro) throw invalid(erro.erro);
  if (faixa.faixaPromocional !== null && faixa.faixaPromocional > mantidas.length) throw invalid('dadosIncorretos');
  return mantidas;
}

/** Unit values per (service, band id): known services only, one value per payload band. */
function valoresDoCorpo(tarifasBody: TarifaEntrada, posicoes: readonly number[], total: number, faixaIds: readonly string[], servs: Catalogo) {
  const conhecidos = new Set(servs.map((s) => s.id));
  const vistos = new Set<number>();
  const valores: GrupoTarifaRecord['valores'] = [];
  for (const t of tarifasBody) {
    if (!conhecidos.has(t.servId)) throw invalid('servicoDesconhecido', { servico: String(t.servId) });
    if (vistos.has(t.servId)) throw invalid('dadosIncorretos');
    vistos.add(t.servId);
    if (t.valores.length > total) throw invalid('dadosIncorretos');
    posicoes.forEach((posicao, i) => valores.push({ servId: t.servId, faixaId: faixaIds[i]!, valor: t.valores[posicao] ?? 0 }));
  }
  return valores;
}

/**
 * The timeline's rules (platform/linha-do-tempo.ts): a version that has been in force keeps its start
 * and its band group; only the current one's end may move, to this month or later.
 */
const REGRAS: Regras<VersaoLinha> = {
  id: (v) => v.grupoTarifaId,
  mesmaBase: (antes, depois) => antes.grupoFaixaId === depois.grupoFaixaId,
  erros: { vigencia: 'vigenciaFinalInvalida', imutavel: 'tarifacaoImutavel', fimDaVigente: 'vigenciaFinalInvalida', emElaboracao: 'tarifacaoEmElaboracao', alterada: 'tarifacaoAlterada' },
};

/** A change planned on a fresh read of the timeline, checked and written (platform/linha-do-tempo.ts). */
async function mudar(by: Principal, plano: (e: Estado, mes: string) => Omit<store.Mudanca, 'revisao' | 'at' | 'by'>): Promise<void> {
  await mudarComReleitura(async () => {
    const e = await ler();
    const mes = mesAtual();
    const m = plano(e, mes);
    const versoes = conferirLinhaDoTempo(e.versoes, m.versoes, mes, REGRAS);
    return store.gravar({ ...m, versoes, revisao: e.revisao, at: new Date().toISOString(), by: by.name });
  }, REGRAS.erros.alterada);
}

/** The new version's start: the month after the current one's end (≥ this month), or without a current one ≥ next month. */
function inicioNovo(e: Estado, mes: string, vigente: VersaoLinha | null, inicio: string, fimAtual: string | null | undefined) {
  if (vigente) {
    if (!fimAtual || fimAtual < mes) throw invalid('vigenciaFinalInvalida');
    if (inicio !== nextMonth(fimAtual)) throw invalid('vigenciaInicialInvalida');
  } else {
    const ultima = e.versoes.at(-1);
    if (inicio <= mes || (ultima?.fim && inicio <= ultima.fim)) throw invalid('vigenciaInicialInvalida');
  }
}

function comFim(versoes: readonly VersaoLinha[], grupoTarifaId: string | undefined, fim: string | undefined): VersaoLinha[] {
  return versoes.map((v) => (v.grupoTarifaId === grupoTarifaId ? { ...v, fim } : v));
}

const audit = (p: Principal, at: string, antes?: { createdAt: string; createdBy?: string | undefined }) => ({
  createdAt: antes?.createdAt ?? at,
  createdBy: antes?.createdBy ?? p.name,
  updatedAt: at,
  updatedBy: p.name,
});

function grupoFaixaRecord(grupoFaixaId: string, faixa: FaixaBody, p: Principal, at: string, antes?: GrupoFaixaRecord) {
  const mantidas = faixasDoCorpo(faixa);
  const faixas = mantidas.map((f, i) => ({ faixaId: String(i + 1), qtdMinima: f.qtdMinima, ...(f.qtdMaxima === null ? {} : { qtdMaxima: f.qtdMaxima }) }));
  const record: GrupoFaixaRecord = {
    grupoFaixaId,
    descricao: faixa.nomeGrupoFaixa,
    faixas,
    ...(faixa.faixaPromocional === null ? {} : { faixaPromocionalId: String(faixa.faixaPromocional) }),
    ...audit(p, at, antes),
  };
  return { record, posicoes: mantidas.map((f) => f.posicao) };
}

function grupoTarifaRecord(
  grupoTarifaId: string,
  grupoFaixa: GrupoFaixaRecord,
  posicoes: readonly number[],
  total: number,
  t: { nomeGrupoTarifa: string; assinaturaMinima: number; tarifas: TarifaEntrada },
  servs: Catalogo,
  p: Principal,
  at: string,
  antes?: GrupoTarifaRecord,
): GrupoTarifaRecord {
  return {
    grupoTarifaId,
    grupoFaixaId: grupoFaixa.grupoFaixaId,
    descricao: t.nomeGrupoTarifa,
    assinatura: t.assinaturaMinima,
    valores: valoresDoCorpo(t.tarifas, posicoes, total, grupoFaixa.faixas.map((f) => f.faixaId), servs),
    ...audit(p, at, antes),
  };
}

// ---- changes ---------------------------------------------------------------------------------------

const ok = (key: 'faixasCadastradas' | 'faixasAtualizadas'): [boolean, string] => [true, message(key)];

/** A new band group with its tariff group (spec 3, 3.3): a draft; the current version ends the month before. */
export async function criar(body: CreateBody, p: Principal): Promise<[boolean, string]> {
  const servs = await catalogo();
  const grupoFaixaId = randomUUID();
  const grupoTarifaId = randomUUID();
  await mudar(p, (e, mes) => {
    if (elaboracaoDe(e, mes)) throw conflict('tarifacaoEmElaboracao');
    const vigente = vigenteDe(e, mes);
    inicioNovo(e, mes, vigente, body.faixa.vigenciaInicial, body.faixa.vigenciaFinalFaixaAtual);
    const at = new Date().toISOString();
    const { record: gf, posicoes } = grupoFaixaRecord(grupoFaixaId, body.faixa, p, at);
    const gt = grupoTarifaRecord(grupoTarifaId, gf, posicoes, body.faixa.faixas.length, body.tarifa, servs, p, at);
    const novo = { grupoFaixaId, grupoTarifaId, inicio: body.faixa.vigenciaInicial };
    return {
      versoes: [...comFim(e.versoes, vigente?.grupoTarifaId, body.faixa.vigenciaFinalFaixaAtual ?? undefined), novo],
      gravarFaixas: [gf],
      gravarTarifas: [gt],
    };
  });
  return ok('faixasCadastradas');
}

/** A new tariff group on the current bands (spec 3, 3.5): a draft; the current tariff ends the month before. */
export async function criarTarifa(body: CreateTarifaBody, p: Principal): Promise<[boolean, string]> {
  const servs = await catalogo();
  const grupoTarifaId = randomUUID();
  await mudar(p, (e, mes) => {
    if (elaboracaoDe(e, mes)) throw conflict('tarifacaoEmElaboracao');
    const vigente = vigenteDe(e, mes);
    if (!vigente) throw notFound('semTarifacaoVigente');
    if (vigente.grupoFaixaId !== body.idGrupoFaixa || vigente.grupoTarifaId !== body.idGrupoTarifaVigente) throw conflict('tarifacaoAlterada');
    inicioNovo(e, mes, vigente, body.vigenciaInicial, body.vigenciaFinalGrupoTarifaAtual);
    const gf = e.faixas.get(vigente.grupoFaixaId)!;
    const gt = grupoTarifaRecord(grupoTarifaId, gf, gf.faixas.map((_, i) => i), gf.faixas.length, body, servs, p, new Date().toISOString());
    return {
      versoes: [...comFim(e.versoes, vigente.grupoTarifaId, body.vigenciaFinalGrupoTarifaAtual), { grupoFaixaId: gf.grupoFaixaId, grupoTarifaId, inicio: body.vigenciaInicial }],
      gravarTarifas: [gt],
    };
  });
  return ok('faixasCadastradas');
}

/** Changes the draft (spec 3, 3.4): bands (unless they are the current ones), values, names, subscription, start. */
export async function atualizar(body: UpdateBody, p: Principal): Promise<[boolean, string]> {
  const servs = await catalogo();
  await mudar(p, (e, mes) => {
    if (body.revisao !== undefined && body.revisao !== (e.revisao ?? 0)) throw conflict('tarifacaoAlterada');
    const alvo = e.versoes.find((v) => v.grupoFaixaId === body.idGrupoFaixa && v.grupoTarifaId === body.idGrupoTarifa);
    if (alvo && tipoDe(alvo, mes) !== 'ELABORACAO') throw invalid('tarifacaoImutavel');
    const draft = elaboracaoDe(e, mes);
    if (!draft || !alvo) throw notFound('semTarifacaoElaboracao');
    const vigente = vigenteDe(e, mes);
    const inicio = body.faixa.vigenciaInicial;
    if (inicio <= mes) throw invalid('vigenciaInicialInvalida');
    const at = new Date().toISOString();
    const antesFaixa = e.faixas.get(draft.grupoFaixaId)!;
    const compartilhada = e.versoes.some((v) => v !== draft && v.grupoFaixaId === draft.grupoFaixaId);
    let gf = antesFaixa;
    let posicoes: number[];
    if (compartilhada) {
      // The draft prices the current bands: they are read-only (spec 3, 4.1).
      const mantidas = body.faixa.faixas.filter((f) => !f.excluir);
      const iguais =
        mantidas.length === antesFaixa.faixas.length &&
        mantidas.every((f, i) => f.qtdMinima === antesFaixa.faixas[i]!.qtdMinima && f.qtdMaxima === (antesFaixa.faixas[i]!.qtdMaxima ?? null));
      if (!iguais) throw invalid('faixasVigentesSomenteLeitura');
      posicoes = body.faixa.faixas.map((f, i) => ({ f, i })).filter(({ f }) => !f.excluir).map(({ i }) => i);
    } else {
      ({ record: gf, posicoes } = grupoFaixaRecord(draft.grupoFaixaId, body.faixa, p, at, antesFaixa));
    }
    const gt = grupoTarifaRecord(draft.grupoTarifaId, gf, posicoes, body.faixa.faixas.length, body.tarifa, servs, p, at, e.tarifas.get(draft.grupoTarifaId));
    const versoes = e.versoes.map((v) => (v === draft ? { ...v, inicio } : v === vigente ? { ...v, fim: previousMonth(inicio) } : v));
    return { versoes, gravarFaixas: compartilhada ? [] : [gf], gravarTarifas: [gt] };
  });
  return ok('faixasAtualizadas');
}

/** Removes the draft; the current version has no end again. */
export async function removerElaboracao(grupoTarifaId: string, p: Principal): Promise<{ message: string }> {
  let compartilhada = false;
  await mudar(p, (e, mes) => {
    const draft = elaboracaoDe(e, mes);
    if (!draft || draft.grupoTarifaId !== grupoTarifaId) throw notFound('semTarifacaoElaboracao');
    const vigente = vigenteDe(e, mes);
    compartilhada = e.versoes.some((v) => v !== draft && v.grupoFaixaId === draft.grupoFaixaId);
    return {
      versoes: comFim(e.versoes.filter((v) => v !== draft), vigente?.grupoTarifaId, undefined),
      removerTarifas: [draft.grupoTarifaId],
      removerFaixas: compartilhada ? [] : [draft.grupoFaixaId],
    };
  });
  return { message: message(compartilhada ? 'tarifaElaboracaoRemovida' : 'grupoFaixaElaboracaoRemovido') };
}

// ---- demo data -------------------------------------------------------------------------------------

export interface VersaoDemo {
  inicio: string;
  fim?: string;
  grupoFaixa: { id: string; descricao: string; faixaPromocional: number | null; faixas: { qtdMinima: number; qtdMaxima: number | null }[] };
  grupoTarifa: { id: string; descricao: string; assinatura: number; valores: Record<number, number[]> };
}

/**
 * The twin's demo versions, written once: nothing is written when a timeline exists (so what an
 * administrator changed survives a restart). Versions sharing a band group id share its item.
 */
export async function semearDemo(versoes: readonly VersaoDemo[], by: string): Promise<boolean> {
  if (await store.lerLinha()) return false;
  const at = new Date().toISOString();
  const linhas = versoes.map((v) => ({ grupoFaixaId: v.grupoFaixa.id, grupoTarifaId: v.grupoTarifa.id, inicio: v.inicio, ...(v.fim ? { fim: v.fim } : {}) }));
  conferirContiguidade(linhas, REGRAS.erros.vigencia);
  const faixas = new Map<string, GrupoFaixaRecord>();
  const tarifasDemo: GrupoTarifaRecord[] = [];
  for (const v of versoes) {
    const erro = validarFaixas(v.grupoFaixa.faixas);
    if (erro) throw new Error(`demo band group ${v.grupoFaixa.id}: ${erro.erro}`);
    const faixaIds = v.grupoFaixa.faixas.map((_, i) => String(i + 1));
    faixas.set(v.grupoFaixa.id, {
      grupoFaixaId: v.grupoFaixa.id,
      descricao: v.grupoFaixa.descricao,
      faixas: v.grupoFaixa.faixas.map((f, i) => ({ faixaId: faixaIds[i]!, qtdMinima: f.qtdMinima, ...(f.qtdMaxima === null ? {} : { qtdMaxima: f.qtdMaxima }) })),
      ...(v.grupoFaixa.faixaPromocional === null ? {} : { faixaPromocionalId: String(v.grupoFaixa.faixaPromocional) }),
      createdAt: at,
      updatedAt: at,
      createdBy: by,
      updatedBy: by,
    });
    tarifasDemo.push({
      grupoTarifaId: v.grupoTarifa.id,
      grupoFaixaId: v.grupoFaixa.id,
      descricao: v.grupoTarifa.descricao,
      assinatura: v.grupoTarifa.assinatura,
      valores: Object.entries(v.grupoTarifa.valores).flatMap(([servId, valores]) =>
        faixaIds.map((faixaId, i) => ({ servId: Number(servId), faixaId, valor: valores[i] ?? 0 })),
      ),
      createdAt: at,
      updatedAt: at,
      createdBy: by,
      updatedBy: by,
    });
  }
  return store.gravar({ revisao: null, versoes: linhas, gravarFaixas: [...faixas.values()], gravarTarifas: tarifasDemo, at, by });
}
