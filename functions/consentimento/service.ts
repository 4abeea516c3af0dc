import { isAdmin, type Principal } from '@plac/shared/access';
import type { BodyOf } from '@plac/shared/contracts/define';
import {
  codigoTipoTransportador,
  documentoCompleto,
  estadoConsentimento,
  situacaoEmissor,
  situacaoItem,
  termoCompartNfeTexto,
  termoFaturaMensalTexto,
  TIPO_CLIENTE_CODIGOS,
  validarFiltroConsentimento,
} from '@plac/shared/contracts/consentimento';
import type * as contratos from '@plac/shared/contracts/consentimento';
import { cnpjBase, foldText, toTransportDate } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { clientePorCnpj, clienteResumo, todosClientes } from '../clientes';
import { instituicaoPorId, instituicoesAutorizadas } from '../instituicoes';
import { conflict, forbidden, HttpError, invalid, notFound } from '../platform/errors';
import { paginaComCursor, vinculoDoCursor } from '../platform/paginas';
import * as store from './store';
import type { ConsentimentoRecord, FilialRecord, InstituicaoConsentida, LinhaConsentimento, TransporteRecord, VersaoRecord } from './store';

/**
 * The issuer's consent and the consent lists (docs/consentimento.md).
 *
 * - The wizard (role emissor): the consent belongs to the company, keyed by the base CNPJ of the
 *   certificate; the certificate's own CNPJ is "the user's own branch". Each save or removal writes a
 *   new version (who: the certificate's CNPJ and the user; when; what) and never overwrites one.
 * - The lists: the authority sees every consent; a client user sees only the consents whose current
 *   institutions include one its client holds an AUTORIZADO ESF authorisation for (the institutions
 *   the client may ask billing look-ups about), and in the detail only those institutions.
 * - The rules other contexts ask on their hot paths (the billing look-ups' `consentimentoVigente`, the
 *   webhook producers' and the assignments' institutions) are in partilha.ts.
 */

const now = () => new Date().toISOString();
// ---- the issuer ------------------------------------------------------------------------------------

/** The certificate's CNPJ: an issuer's user id is `emissor-<cnpj>` (users.ensureIssuer). */
function certificadoDo(p: Principal): string {
  const cnpj = p.userId.startsWith('emissor-') ? p.userId.slice('emissor-'.length) : '';
  if (!p.roles.includes('emissor') || !/^[0-9A-Z]{14}$/.test(cnpj)) throw forbidden('semPermissao');
  return cnpj;
}

const autor = (p: Principal, cnpj: string) => `${p.name} (${cnpj})`;

function termoView(p: Principal, cnpj: string, c: ConsentimentoRecord | null) {
  const razaoSocial = c?.razaoSocial ?? p.name;
  const empresa = c?.cnpj ?? cnpj;
  return {
    razaoSocial,
    cnpj,
    cnpjBase: cnpjBase(cnpj),
    estado: estadoConsentimento(c ? c.termoFatMensal : null, c ? c.termoCompartNfe : null),
    termoFaturaMensalTexto: termoFaturaMensalTexto(razaoSocial, empresa),
    termoFaturaMensalValue: c ? c.termoFatMensal : null,
    termoFaturaMensalDt: c?.termoFatMensalDt ?? null,
    termoCompartNfeTexto: termoCompartNfeTexto(razaoSocial, empresa),
    termoCompartNfeValue: c ? c.termoCompartNfe : null,
    filiais: (c?.filiais ?? []).map((f) => ({ ...f })),
    inst_financeiras: (c?.instituicoes ?? []).map((i) => ({
      id: i.instituicaoId,
      razaoSocial: i.razaoSocial,
      cnpj: i.cnpj,
      uf: i.uf,
      situacao: i.situacao,
      termoFatMensal: i.termoFatMensal,
      termoCompartNfe: i.termoCompartNfe,
      termoFaturaMensalDt: i.termoFatMensalDt ?? null,
      createdAt: i.createdAt,
      updatedAt: i.updatedAt,
      createdBy: i.createdBy,
    })),
    versao: c?.versao ?? 0,
  };
}

export async function getTermo(p: Principal) {
  const cnpj = certificadoDo(p);
  return termoView(p, cnpj, await store.findConsentimento(cnpjBase(cnpj)));
}

function versaoDe(c: ConsentimentoRecord, acao: VersaoRecord['acao'], p: Principal, cnpj: string): VersaoRecord {
  return {
    emissor: c.emissor,
    versao: store.padVersao(c.versao),
    acao,
    em: c.updatedAt,
    cnpjCertificado: cnpj,
    usuario: p.name,
    userId: p.userId,
    termoFatMensal: c.termoFatMensal,
    termoCompartNfe: c.termoCompartNfe,
    filiais: c.filiais,
    instituicoes: c.instituicoes,
  };
}

function exigirVersao(lida: number, enviada: number | undefined) {
  if (enviada !== undefined && enviada !== lida) throw conflict('consentimentoAlterado');
}

type SalvarBody = BodyOf<typeof contratos.salvarTermo>;

/**
 * The branches as saved: all of the certificate's base ('cnpjFilialForaDoBase'), each once
 * ('filialDuplicada'), the certificate's own among them ('consentimentoFilialPropria'), and every branch
 * already consented still there with its UF ('consentimentoFilialPersistida').
 */
function filiaisSalvas(body: SalvarBody, cnpj: string, antes: readonly FilialRecord[], at: string): FilialRecord[] {
  const base = cnpjBase(cnpj);
  const vistos = new Set<string>();
  body.filiais.forEach((f, i) => {
    if (cnpjBase(f.cnpj) !== base) throw new HttpError(400, 'cnpjFilialForaDoBase', { [`filiais.${i}.cnpj`]: [message('cnpjFilialForaDoBase')] });
    if (vistos.has(f.cnpj)) throw new HttpError(400, 'filialDuplicada', { [`filiais.${i}.cnpj`]: [message('filialDuplicada')] });
    vistos.add(f.cnpj);
  });
  if (!vistos.has(cnpj)) throw invalid('consentimentoFilialPropria', { cnpj });
  for (const a of antes) {
    const agora = body.filiais.find((f) => f.cnpj === a.cnpj);
    if (!agora || agora.uf !== a.uf) throw invalid('consentimentoFilialPersistida', { cnpj: a.cnpj });
  }
  return body.filiais.map((f) => {
    const a = antes.find((x) => x.cnpj === f.cnpj);
    const item = { cnpj: f.cnpj, razaoSocial: f.razaoSocial, email: f.email, uf: f.uf, termoFatMensal: f.termoFatMensal, termoCompartNfe: body.termoCompartNfe };
    const mudou = !a || a.razaoSocial !== item.razaoSocial || a.email !== item.email || a.termoFatMensal !== item.termoFatMensal || a.termoCompartNfe !== item.termoCompartNfe;
    return { ...item, createdAt: a?.createdAt ?? at, updatedAt: mudou ? at : a.updatedAt };
  });
}

/**
 * The institutions as saved: each once; one already in the consent keeps what it was added with; a
 * new one must be in the registry and ATIVA, or NOVO and created by this company
 * ('consentimentoInstituicaoIndisponivel').
 */
async function instituicoesSalvas(body: SalvarBody, p: Principal, cnpj: string, antes: readonly InstituicaoConsentida[], at: string): Promise<InstituicaoConsentida[]> {
  const out: InstituicaoConsentida[] = [];
  for (const pedido of body.inst_financeiras) {
    const a = antes.find((x) => x.instituicaoId === pedido.id);
    let item: Omit<InstituicaoConsentida, 'termoFatMensal' | 'termoCompartNfe' | 'termoFatMensalDt' | 'createdAt' | 'updatedAt'>;
    if (a) {
      item = { instituicaoId: a.instituicaoId, razaoSocial: a.razaoSocial, cnpj: a.cnpj, uf: a.uf, situacao: a.situacao, ...(a.tipo ? { tipo: a.tipo } : {}), createdBy: a.createdBy };
    } else {
      const r = await instituicaoPorId(pedido.id).catch((error: unknown) => {
        if (error instanceof HttpError && error.status === 404) return null;
        throw error;
      });
      const propria = r?.situacao === 'NOVO' && r.createdBy !== null && cnpjBase(r.createdBy) === cnpjBase(cnpj);
      if (!r || !(r.situacao === 'ATIVA' || propria)) throw invalid('consentimentoInstituicaoIndisponivel', { cnpj: r?.cnpj ?? pedido.id });
      item = { instituicaoId: r.id, razaoSocial: r.razaoSocial, cnpj: r.cnpj, uf: r.uf, situacao: r.situacao, ...(r.tipo ? { tipo: r.tipo } : {}), createdBy: autor(p, cnpj) };
    }
    if (out.some((o) => o.instituicaoId === item.instituicaoId || o.cnpj === item.cnpj)) throw invalid('consentimentoInstituicaoDuplicada', { cnpj: item.cnpj });
    const ligada = pedido.termoFatMensal;
    const mudou = !a || a.termoFatMensal !== ligada || a.termoCompartNfe !== body.termoCompartNfe;
    const dt = ligada && (!a || !a.termoFatMensal) ? at : a?.termoFatMensalDt;
    out.push({
      ...item,
      termoFatMensal: ligada,
      termoCompartNfe: body.termoCompartNfe,
      ...(dt ? { termoFatMensalDt: dt } : {}),
      createdAt: a?.createdAt ?? at,
      updatedAt: mudou ? at : a.updatedAt,
    });
  }
  return out;
}

/** Saves the consent as a new version: the first acceptance (or one after a removal) is ACEITE, else ALTERACAO. */
export async function salvarTermo(body: SalvarBody, p: Principal) {
  const cnpj = certificadoDo(p);
  if (!body.termoFatMensal) throw invalid('consentimentoTermoObrigatorio');
  const base = cnpjBase(cnpj);
  const antes = await store.findConsentimento(base);
  const lida = antes?.versao ?? 0;
  exigirVersao(lida, body.versao);
  const at = now();
  const filiais = filiaisSalvas(body, cnpj, antes?.filiais ?? [], at);
  const instituicoes = await instituicoesSalvas(body, p, cnpj, antes?.instituicoes ?? [], at);
  const aceite = !antes || !antes.termoFatMensal;
  const propria = filiais.find((f) => f.cnpj === cnpj)!;
  const { dataVigenciaFinal: _fim, termoFatMensalDt: _dt, ...anterior } = antes ?? ({} as Partial<ConsentimentoRecord>);
  const dt = aceite ? at : antes?.termoFatMensalDt;
  const atual: ConsentimentoRecord = {
    ...anterior,
    emissor: base,
    razaoSocial: antes?.razaoSocial ?? p.name,
    razaoFolded: antes?.razaoFolded ?? foldText(p.name),
    cnpj: antes?.cnpj ?? cnpj,
    uf: propria.uf,
    termoFatMensal: true,
    termoCompartNfe: body.termoCompartNfe,
    ...(dt ? { termoFatMensalDt: dt } : {}),
    filiais,
    instituicoes,
    versao: lida + 1,
    dataAssinatura: aceite ? at : antes.dataAssinatura,
    createdAt: antes?.createdAt ?? at,
    updatedAt: at,
    updatedBy: p.name,
    updatedByCnpj: cnpj,
  };
  const ok = await store.gravar({
    versaoLida: lida,
    atual,
    versao: versaoDe(atual, aceite ? 'ACEITE' : 'ALTERACAO', p, cnpj),
    desnomeadas: (antes?.instituicoes ?? []).map((i) => i.cnpj),
  });
  if (!ok) throw conflict('consentimentoAlterado');
  return { message: message('consentimentoRegistrado'), consentimento: termoView(p, cnpj, atual) };
}

/** Removes the consent (both values false): a new version; the look-ups refuse from the next call. */
export async function removerTermo(body: BodyOf<typeof contratos.removerTermo>, p: Principal) {
  const cnpj = certificadoDo(p);
  const antes = await store.findConsentimento(cnpjBase(cnpj));
  if (!antes || !antes.termoFatMensal) throw invalid('consentimentoInexistente');
  exigirVersao(antes.versao, body.versao);
  const at = now();
  const atual: ConsentimentoRecord = {
    ...antes,
    termoFatMensal: false,
    termoCompartNfe: false,
    dataVigenciaFinal: at,
    versao: antes.versao + 1,
    updatedAt: at,
    updatedBy: p.name,
    updatedByCnpj: cnpj,
  };
  const ok = await store.gravar({ versaoLida: antes.versao, atual, versao: versaoDe(atual, 'REMOCAO', p, cnpj) });
  if (!ok) throw conflict('consentimentoAlterado');
  return { message: message('consentimentoRemovido') };
}

// ---- the lists -------------------------------------------------------------------------------------

/**
 * The institutions (base CNPJs) a caller may see consents of: null for the authority (all); for a
 * client user, those its client holds an AUTORIZADO ESF authorisation for. A client user asking for
 * another client is refused ('clienteNaoPermitido'); the authority naming a client narrows to its.
 */
async function escopo(p: Principal, cnpjCliente?: string): Promise<Set<string> | null> {
  if (isAdmin(p)) {
    if (!cnpjCliente) return null;
    const c = await clientePorCnpj(cnpjCliente);
    return new Set(c ? await instituicoesAutorizadas(c.id) : []);
  }
  const own = p.clienteId ? await clienteResumo(p.clienteId) : null;
  if (cnpjCliente && own?.cnpj !== cnpjCliente) throw forbidden('clienteNaoPermitido');
  return new Set(own ? await instituicoesAutorizadas(own.id) : []);
}

const nomeia = (c: ConsentimentoRecord, bases: Set<string> | null) => bases === null || c.instituicoes.some((i) => bases.has(i.cnpj));

const visiveis = <T extends { cnpj: string }>(instituicoes: readonly T[], bases: Set<string> | null) => instituicoes.filter((i) => bases === null || bases.has(i.cnpj));

function linhaEmissor(l: LinhaConsentimento, bases: Set<string> | null) {
  return {
    id: l.emissor,
    razaoSocial: l.razaoSocial,
    cnpj: l.cnpj,
    uf: l.uf,
    numeroContrato: `${l.emissor}/${l.versao}`,
    createdAt: l.dataAssinatura,
    situacao: situacaoEmissor(l.dataVigenciaFinal),
    termoFaturaMensal: l.termoFatMensal,
    updatedAt: l.updatedAt,
    dataVigenciaFinal: l.dataVigenciaFinal ?? null,
    tipoCliente: [...new Set(visiveis(l.instituicoes, bases).flatMap((i) => (i.tipo ? [i.tipo] : [])))].sort(),
  };
}

function exigirFiltro(f: Record<string, unknown>) {
  const erro = validarFiltroConsentimento(f);
  if (erro) throw invalid(erro);
}

const noPeriodo = (instante: string, f: { dataInicial?: string | undefined; dataFinal?: string | undefined }) => {
  const dia = toTransportDate(instante);
  return (!f.dataInicial || dia >= f.dataInicial) && (!f.dataFinal || dia <= f.dataFinal);
};

/** A CNPJ/CPF filter: a whole document is compared exactly, a part is contained. */
const documentoConfere = (filtro: string | undefined, docs: readonly string[]) =>
  !filtro || docs.some((d) => (documentoCompleto(filtro) ? d === filtro : d.includes(filtro)));

/** The start and the end of a Bahia calendar day (UTC-3, no daylight saving since 2012), as ISO instants. */
const inicioDoDia = (dia: string) => new Date(`${dia}T00:00:00-03:00`).toISOString();
const fimDoDia = (dia: string) => new Date(Date.parse(`${dia}T00:00:00-03:00`) + 86_400_000 - 1).toISOString();

/** What binds a list's cursor: the caller, the route and the filters as normalised (the cursor itself and the ignored flags left out). */
function vinculoDaLista(p: Principal, rota: string, f: Record<string, unknown>) {
  const { cursor: _c, isAdminSefaz: _a, isCliente: _i, ...filtros } = f;
  return vinculoDoCursor(p, rota, filtros);
}

/**
 * The issuer the filter itself names, if any: the company picked, a whole CNPJ (its base), or a contract
 * number (`<base>/<version>`: a part holding the '/' starts with the whole base). Then the list is one
 * GetItem; null when the filter names a whole CPF, which no issuer (a company) has.
 */
function emissorDoFiltro(f: BodyOf<typeof contratos.filtrarEmissores>): string | null | undefined {
  if (f.cnpjEmissor) return f.cnpjEmissor;
  const doc = f.cnpjTransportadora;
  if (doc && documentoCompleto(doc)) return doc.length === 14 ? cnpjBase(doc) : null;
  return /^([0-9A-Z]{8})\//.exec(f.numeroContrato ?? '')?.[1];
}

/**
 * The authority's and the client users' issuer list, a page at a time (docs/architecture.md, "Lists"):
 * - an issuer named by the filter (company, whole CNPJ, contract number): one GetItem;
 * - the authority: one key-range Query of every consent by folded name (gsi1), `begins_with` the name typed;
 * - a client user (or the authority naming a client): one Query per authorised institution on the links'
 *   name index (only the consents naming it now), merged by name, each consent once.
 * The other filters (status, UF, contract part, CNPJ part, dates, client type) are checked on the rows
 * read, in the bounded loop of platform/paginas.ts.
 */
export async function filtrarEmissores(f: BodyOf<typeof contratos.filtrarEmissores>, p: Principal) {
  exigirFiltro(f);
  const bases = await escopo(p, f.cnpjCliente);
  const nome = f.razaoSocialTransportadora ? foldText(f.razaoSocialTransportadora) : '';
  const tipo = f.tipoCliente ? TIPO_CLIENTE_CODIGOS.find((t) => t.value === f.tipoCliente)!.label : null;
  const direto = emissorDoFiltro(f);
  const confere = (l: LinhaConsentimento) => {
    const linha = linhaEmissor(l, bases);
    return (
      (!f.cnpjEmissor || l.emissor === f.cnpjEmissor) &&
      (f.situacao === undefined || linha.situacao === (f.situacao === 1 ? 'Ativo' : 'Desativado')) &&
      (!f.uf || l.uf === f.uf) &&
      (!f.numeroContrato || linha.numeroContrato.includes(f.numeroContrato)) &&
      (!nome || l.razaoFolded.startsWith(nome)) &&
      documentoConfere(f.cnpjTransportadora, l.documentos) &&
      noPeriodo(l.dataAssinatura, f) &&
      (!tipo || linha.tipoCliente.includes(tipo))
    );
  };
  const residual = f.situacao !== undefined || f.uf || f.numeroContrato || f.cnpjTransportadora || f.dataInicial || f.dataFinal || tipo;
  const pedido = { perPage: f.perPage, aceita: residual ? confere : undefined, prefixo: nome || undefined };
  const pagina = await paginaComCursor(vinculoDaLista(p, 'consentimento.filtrarEmissores', f), f.cursor, async (posicao) => {
    if (direto !== undefined) {
      const c = direto === null ? null : await store.findConsentimento(direto);
      const l = c && nomeia(c, bases) ? store.linhaDoConsentimento(c) : null;
      return { items: l && confere(l) ? [l] : [], posicao: null };
    }
    if (bases === null) return store.paginaDeConsentimentos({ ...pedido, posicao });
    if (bases.size === 0) return { items: [], posicao: null };
    return store.paginaDeConsentimentosDasInstituicoes([...bases], { ...pedido, posicao });
  });
  return { ...pagina, items: pagina.items.map((l) => linhaEmissor(l, bases)) };
}

/** The consent of an issuer the caller may see; 404 otherwise (a client never learns of others). */
async function consentimentoVisivel(cnpj: string, p: Principal) {
  const bases = await escopo(p);
  const c = await store.findConsentimento(cnpj);
  if (!c || !nomeia(c, bases)) throw notFound();
  return { c, bases };
}

export async function detalharEmissor(cnpj: string, p: Principal) {
  const { c, bases } = await consentimentoVisivel(cnpj, p);
  return {
    emissor: linhaEmissor(store.linhaDoConsentimento(c), bases),
    filiais: c.filiais.map((x) => ({ ...x, situacao: situacaoItem(x.termoFatMensal) })),
    instFinanceiras: visiveis(c.instituicoes, bases).map((i) => ({
      instituicaoFinanceira: { razaoSocial: i.razaoSocial, cnpj: i.cnpj },
      termoFaturaMensal: i.termoFatMensal,
      situacao: situacaoItem(i.termoFatMensal),
      termoFaturaMensalDt: i.termoFatMensalDt ?? null,
      createdAt: i.createdAt,
      updatedAt: i.updatedAt,
    })),
  };
}

export async function historicoEmissor(cnpj: string, p: Principal) {
  const { bases } = await consentimentoVisivel(cnpj, p);
  return (await store.versoes(cnpj)).map((v) => ({
    versao: Number(v.versao),
    acao: v.acao,
    em: v.em,
    cnpjCertificado: v.cnpjCertificado,
    usuario: v.usuario,
    termoFatMensal: v.termoFatMensal,
    termoCompartNfe: v.termoCompartNfe,
    filiais: v.filiais.map((x) => ({ cnpj: x.cnpj, razaoSocial: x.razaoSocial, uf: x.uf, termoFatMensal: x.termoFatMensal })),
    instituicoes: v.instituicoes
      .filter((i) => bases === null || bases.has(i.cnpj))
      .map((i) => ({ cnpj: i.cnpj, razaoSocial: i.razaoSocial, termoFatMensal: i.termoFatMensal })),
  }));
}

/** At most this many issuers in the company filter's options: those whose name begins with what was typed. */
export const MAX_OPCOES_EMISSORES = 20;

export async function opcoes(p: Principal, q: { nome?: string | undefined } = {}) {
  const bases = await escopo(p);
  let clientes: { cnpj: string; razaoSocial: string; tipoCliente: string }[];
  if (isAdmin(p)) {
    clientes = (await todosClientes()).map((c) => ({ cnpj: c.cnpj, razaoSocial: c.razao_social, tipoCliente: c.tipo_cliente }));
  } else {
    const own = p.clienteId ? await clienteResumo(p.clienteId) : null;
    clientes = own ? [{ cnpj: own.cnpj, razaoSocial: own.razao_social, tipoCliente: own.tipo_cliente }] : [];
  }
  // A bounded search: the first issuers by name (beginning with the text typed), one page of the lists' indexes.
  const pedido = { perPage: MAX_OPCOES_EMISSORES, prefixo: q.nome ? foldText(q.nome) || undefined : undefined };
  const pagina =
    bases === null
      ? await store.paginaDeConsentimentos(pedido)
      : bases.size === 0
        ? { items: [] }
        : await store.paginaDeConsentimentosDasInstituicoes([...bases], pedido);
  return { clientes, emissores: pagina.items.map((l) => ({ cnpj: l.emissor, razaoSocial: l.razaoSocial })) };
}

// ---- carriers and drawers ----------------------------------------------------------------------------

function linhaTransporte(t: TransporteRecord) {
  return {
    sacadorRazaoSocial: t.sacadorRazaoSocial,
    sacadorCNPJ: t.sacadorDocumento,
    sacadorUF: t.sacadorUf,
    consentimentoNumeroContrato: t.numeroContrato,
    consentimentoDataAssinatura: t.dataAssinatura,
    consentimentoDataVigenciaFinal: t.dataVigenciaFinal ?? null,
    situacao: situacaoEmissor(t.dataVigenciaFinal),
    sacadorTipoTransportador: t.tipoTransportador ?? null,
  };
}

/**
 * The carriers' and drawers' consents, newest first, a page at a time: a whole CNPJ/CPF is one Query of
 * its consents (gsi2); the authority's list one key-range Query by signature instant (gsi1, the dates
 * as the range); a client's one Query per authorised institution (its partition by signature instant),
 * merged. The other filters are checked on the rows read, in the bounded loop.
 */
export async function filtrarTransporte(f: BodyOf<typeof contratos.filtrarTransporte>, p: Principal) {
  exigirFiltro(f);
  const bases = await escopo(p, f.cnpjCliente);
  const nome = f.razaoSocialTransportadora ? foldText(f.razaoSocialTransportadora) : '';
  const codigo = codigoTipoTransportador(f.transportador);
  const doc = f.cnpjTransportadora && documentoCompleto(f.cnpjTransportadora) ? f.cnpjTransportadora : null;
  const confere = (r: TransporteRecord) => {
    const t = linhaTransporte(r);
    return (
      (bases === null || bases.has(r.cnpjInst)) &&
      (f.situacao === undefined || t.situacao === (f.situacao === 1 ? 'Ativo' : 'Desativado')) &&
      (!f.uf || t.sacadorUF === f.uf) &&
      (!f.numeroContrato || t.consentimentoNumeroContrato.includes(f.numeroContrato)) &&
      (!nome || foldText(t.sacadorRazaoSocial).includes(nome)) &&
      documentoConfere(f.cnpjTransportadora, [t.sacadorCNPJ]) &&
      noPeriodo(t.consentimentoDataAssinatura, f) &&
      (codigo === null || t.sacadorTipoTransportador === codigo)
    );
  };
  const residual = doc || f.situacao !== undefined || f.uf || f.numeroContrato || nome || f.cnpjTransportadora || codigo !== null;
  const pedido = {
    perPage: f.perPage,
    aceita: residual ? confere : undefined,
    ...(f.dataInicial ? { de: inicioDoDia(f.dataInicial) } : {}),
    ...(f.dataFinal ? { ate: fimDoDia(f.dataFinal) } : {}),
  };
  const pagina = await paginaComCursor(vinculoDaLista(p, 'consentimento.filtrarTransporte', f), f.cursor, async (posicao) => {
    if (doc) return store.paginaDeTransportesDoSacador(doc, { ...pedido, aceita: confere, posicao });
    if (bases === null) return store.paginaDeTransportes({ ...pedido, posicao });
    if (bases.size === 0) return { items: [], posicao: null };
    return store.paginaDeTransportesDasInstituicoes([...bases], { ...pedido, posicao });
  });
  return { ...pagina, items: pagina.items.map(linhaTransporte) };
}
