import { randomInt, randomUUID } from 'node:crypto';
import { ROLES, type Principal, type Role } from '@plac/shared/access';
import { allows, consentimento as contratos, contractsOf, fillPath, type AnyContract } from '@plac/shared/contracts';
import { cnpjCheckDigits, monthOf, todayInBahia } from '@plac/shared/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { esquecerCache } from '../../functions/consulta/chamador';
import { putTransporte, versoes } from '../../functions/consentimento/store';
import { consumoDoCliente } from '../../functions/consumo';
import { nfeXml } from '../../functions/fate/fixtures/builder';
import { ingerir } from '../../functions/fate/service';
import { createAutorizacao } from '../../functions/instituicoes/store';
import { call } from './http';
import { bearer, tokenFor } from './session';
import { gravarCliente } from './clientes-kit';

/**
 * The issuer's consent over the twin: the wizard's rules and its versions (evidence, never
 * overwritten), the consent lists with every filter rule of spec 3 5.7 and the client users' scope
 * (only consents naming an institution their client is authorised for), every consent route walked
 * with every role, and the billing look-up answered only while the consent is active.
 */

/** Paraíba: no other test loads documents from it (each UF has one NSU cursor). */
const UF = 'PB';
const CUF = '25';

const base8 = () => String(randomInt(10_000_000, 99_999_999));
const cnpjDe = (base: string, filial = '0001') => `${base}${filial}${cnpjCheckDigits(`${base}${filial}`)}`;

const send = (method: string, path: string, token: string | null, body?: unknown) =>
  call(path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? bearer(token) : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

let admin: string;

async function emissor(razaoSocial = `Emissora ${randomInt(1e6)} Ltda.`) {
  const base = base8();
  const cnpj = cnpjDe(base);
  const principal: Principal = { userId: `emissor-${cnpj}`, name: razaoSocial, tipo: 'C', roles: ['emissor'] };
  return { base, cnpj, razaoSocial, principal, token: await tokenFor(principal) };
}

async function instituicao(tipo: 'ESF' | 'IMF' = 'ESF') {
  const { status, body } = await send('POST', '/api/v1/instituicao-financeira/admin/create', admin, {
    razaoSocial: `Banco Consentido ${randomInt(1e6)} S.A.`,
    cnpj: base8(),
    uf: 'BA',
    tipo,
    regulada: true,
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return body as { id: string; cnpj: string; razaoSocial: string };
}

async function cliente(tipo: 'ESF' | 'IMF' = 'ESF', autorizadas: string[] = []) {
  const cnpj = cnpjDe(base8());
  const clienteId = `consent-${randomUUID()}`;
  const razaoSocial = `CLIENTE CONSENT ${cnpj.slice(0, 6)}`;
  const at = new Date().toISOString();
  await gravarCliente({ clienteId, cnpj, razaoSocial, tipoCliente: tipo, cep: '41000000', createdAt: at, updatedAt: at });
  for (const cnpjInst of autorizadas) await autorizar(clienteId, cnpj, razaoSocial, cnpjInst);
  const usuario = async (role: Role) => tokenFor({ userId: `${role}-${clienteId}`, name: role, tipo: 'C', roles: [role], clienteId });
  return { clienteId, cnpj, razaoSocial, usuario };
}

async function autorizar(clienteId: string, cnpjCliente: string, razaoSocialCliente: string, cnpjInst: string) {
  const at = new Date().toISOString();
  await createAutorizacao({
    clienteId, cnpjInst, instituicaoId: `inst-${cnpjInst}`, razaoSocialInst: 'Banco', cnpjCliente, razaoSocialCliente,
    status: 'AUTORIZADO', dataAutorizacao: at, arquivoKey: 'x.pdf', nomeArquivo: 'x.pdf', createdAt: at, updatedAt: at,
  });
}

type Termo = { versao: number; estado: string; filiais: { cnpj: string; uf: string; createdAt: string }[]; inst_financeiras: { id: string; cnpj: string }[] };

const filial = (cnpj: string, uf = 'BA', termoFatMensal = true) => ({ cnpj, razaoSocial: `Filial ${cnpj}`, email: 'filial@emissora.local', uf, termoFatMensal });

async function consentir(e: Awaited<ReturnType<typeof emissor>>, insts: { id: string }[], extra: Record<string, unknown> = {}) {
  const { status, body } = await send('POST', '/api/v1/emissor/termo-aceite-emissor', e.token, {
    termoFatMensal: true,
    termoCompartNfe: true,
    filiais: [filial(e.cnpj)],
    inst_financeiras: insts.map((i) => ({ id: i.id, termoFatMensal: true })),
    ...extra,
  });
  expect(status, JSON.stringify(body)).toBe(200);
  return (body as { consentimento: Termo }).consentimento;
}

beforeAll(async () => {
  admin = await tokenFor({ userId: 'consent-admin', name: 'Admin Consent', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' });
});

describe('the issuer’s wizard', () => {
  it('starts not registered, saves two branches and two institutions (one NOVO of its own), and keeps every version', async () => {
    const e = await emissor();
    const vazio = await send('GET', '/api/v1/emissor/termo-aceite-emissor', e.token);
    expect(vazio).toMatchObject({ status: 200, body: { estado: 'NAO_CADASTRADO', termoFaturaMensalValue: null, termoCompartNfeValue: null, cnpj: e.cnpj, versao: 0 } });
    expect((vazio.body as { termoFaturaMensalTexto: string }).termoFaturaMensalTexto).toContain(e.razaoSocial);

    const ativa = await instituicao();
    const novo = await send('POST', '/api/v1/emissor/instituicao_financeira/create', e.token, { razaoSocial: 'Fomento Novo do Emissor Ltda.', cnpj: base8(), uf: 'BA' });
    expect(novo.status).toBe(201);
    const nova = novo.body as { id: string; cnpj: string };
    const segunda = cnpjDe(e.base, '0002');
    const salvo = await consentir(e, [ativa, nova], { filiais: [filial(e.cnpj), filial(segunda, 'SE')] });
    expect(salvo).toMatchObject({ estado: 'AUTORIZADO', versao: 1, termoFaturaMensalValue: true });
    expect(salvo.filiais.map((f) => f.cnpj)).toEqual([e.cnpj, segunda]);
    expect(salvo.inst_financeiras.map((i) => i.cnpj)).toEqual([ativa.cnpj, nova.cnpj]);

    // A change: the second branch's monthly billing off. The first version is still there, unchanged.
    const alterado = await send('POST', '/api/v1/emissor/termo-aceite-emissor', e.token, {
      termoFatMensal: true, termoCompartNfe: true, versao: 1,
      filiais: [filial(e.cnpj), filial(segunda, 'SE', false)],
      inst_financeiras: [{ id: ativa.id, termoFatMensal: true }, { id: nova.id, termoFatMensal: false }],
    });
    expect(alterado.status, JSON.stringify(alterado.body)).toBe(200);
    // A wizard opened before that change is refused rather than overwriting it.
    const velho = await send('POST', '/api/v1/emissor/termo-aceite-emissor', e.token, {
      termoFatMensal: true, termoCompartNfe: true, versao: 1, filiais: [filial(e.cnpj), filial(segunda, 'SE')], inst_financeiras: [],
    });
    expect(velho).toMatchObject({ status: 409, body: { error: 'consentimentoAlterado' } });

    const removido = await send('POST', '/api/v1/emissor/desativar-termo-aceite-emissor', e.token, { termoFatMensal: false, termoCompartNfe: false });
    expect(removido).toMatchObject({ status: 200, body: { message: 'Consentimento removido com sucesso.' } });
    expect((await send('GET', '/api/v1/emissor/termo-aceite-emissor', e.token)).body).toMatchObject({ estado: 'REMOVIDO', termoFaturaMensalValue: false, versao: 3 });
    expect((await send('POST', '/api/v1/emissor/desativar-termo-aceite-emissor', e.token, { termoFatMensal: false, termoCompartNfe: false })).body).toMatchObject({
      error: 'consentimentoInexistente',
    });
    // Removal must send both flags false.
    expect((await send('POST', '/api/v1/emissor/desativar-termo-aceite-emissor', e.token, { termoFatMensal: true, termoCompartNfe: false })).status).toBe(400);

    const historia = await versoes(e.base);
    expect(historia.map((v) => [v.versao, v.acao])).toEqual([['00000003', 'REMOCAO'], ['00000002', 'ALTERACAO'], ['00000001', 'ACEITE']]);
    for (const v of historia) expect(v).toMatchObject({ cnpjCertificado: e.cnpj, usuario: e.razaoSocial });
    expect(historia[2]!.filiais.map((f) => f.termoFatMensal)).toEqual([true, true]);
    expect(historia[1]!.filiais.map((f) => f.termoFatMensal)).toEqual([true, false]);

    const api = await send('GET', `/api/v1/emissor-consentimento/${e.base}/historico`, admin);
    expect(api.status).toBe(200);
    expect((api.body as { versao: number; acao: string; cnpjCertificado: string }[]).map((v) => v.acao)).toEqual(['REMOCAO', 'ALTERACAO', 'ACEITE']);
  });

  it('checks the branches: the base, duplicates, the own branch, persisted branches kept with their UF', async () => {
    const e = await emissor();
    const outra = cnpjDe(base8());
    const save = (filiais: unknown[]) =>
      send('POST', '/api/v1/emissor/termo-aceite-emissor', e.token, { termoFatMensal: true, termoCompartNfe: true, filiais, inst_financeiras: [] });
    expect((await save([filial(e.cnpj), filial(outra)])).body).toMatchObject({ error: 'cnpjFilialForaDoBase', message: 'O Cnpj informado deve pertencer ao Cnpj Base.', errors: { 'filiais.1.cnpj': ['O Cnpj informado deve pertencer ao Cnpj Base.'] } });
    expect((await save([filial(e.cnpj), filial(e.cnpj)])).body).toMatchObject({ error: 'filialDuplicada', message: 'Já foi informada a Filial com esse Cnpj.' });
    expect((await save([filial(cnpjDe(e.base, '0003'))])).body).toMatchObject({ error: 'consentimentoFilialPropria' });
    expect((await save([filial(`${e.cnpj.slice(0, 13)}${(Number(e.cnpj[13]) + 1) % 10}`)])).body).toMatchObject({ errors: { 'filiais.0.cnpj': ['O Cnpj informado é inválido.'] } });
    // The alphanumeric form is a valid CNPJ: of another base here, so refused for the base.
    const alfa = `12ABC34501DE`;
    expect((await save([filial(e.cnpj), filial(`${alfa}${cnpjCheckDigits(alfa)}`)])).body).toMatchObject({ error: 'cnpjFilialForaDoBase' });
    expect((await send('POST', '/api/v1/emissor/termo-aceite-emissor', e.token, { termoFatMensal: false, termoCompartNfe: true, filiais: [filial(e.cnpj)], inst_financeiras: [] })).body).toMatchObject({
      error: 'consentimentoTermoObrigatorio',
    });

    const segunda = cnpjDe(e.base, '0002');
    expect((await save([filial(e.cnpj), filial(segunda)])).status).toBe(200);
    expect((await save([filial(e.cnpj)])).body).toMatchObject({ error: 'consentimentoFilialPersistida', message: `A filial ${segunda} já consentida não pode ser removida nem ter a UF alterada.` });
    expect((await save([filial(e.cnpj), filial(segunda, 'SP')])).body).toMatchObject({ error: 'consentimentoFilialPersistida' });
    expect((await save([filial(e.cnpj, 'SP'), filial(segunda)])).body).toMatchObject({ error: 'consentimentoFilialPersistida' });
  });

  it('accepts ATIVA institutions and its own NOVO ones, each once; not another issuer’s NOVO, a deactivated or an unknown one', async () => {
    const e = await emissor();
    const outro = await emissor();
    const deles = (await send('POST', '/api/v1/emissor/instituicao_financeira/create', outro.token, { razaoSocial: 'Do Outro Ltda.', cnpj: base8(), uf: 'BA' })).body as { id: string; cnpj: string };
    const ativa = await instituicao();
    const save = (inst: unknown[]) =>
      send('POST', '/api/v1/emissor/termo-aceite-emissor', e.token, { termoFatMensal: true, termoCompartNfe: true, filiais: [filial(e.cnpj)], inst_financeiras: inst });
    expect((await save([{ id: deles.id, termoFatMensal: true }])).body).toMatchObject({ error: 'consentimentoInstituicaoIndisponivel' });
    expect((await save([{ id: 'demo-inst-desativada', termoFatMensal: true }])).body).toMatchObject({ error: 'consentimentoInstituicaoIndisponivel' });
    expect((await save([{ id: 'nao-existe', termoFatMensal: true }])).body).toMatchObject({ error: 'consentimentoInstituicaoIndisponivel' });
    expect((await save([{ id: ativa.id, termoFatMensal: true }, { id: ativa.id, termoFatMensal: false }])).body).toMatchObject({ error: 'consentimentoInstituicaoDuplicada' });
    expect((await save([{ id: ativa.id, termoFatMensal: true }])).status).toBe(200);
  });
});

describe('the consent lists', () => {
  let e: Awaited<ReturnType<typeof emissor>>;
  let outroEmissor: Awaited<ReturnType<typeof emissor>>;
  let inst: { id: string; cnpj: string };
  let imf: { id: string; cnpj: string };
  let cli: Awaited<ReturnType<typeof cliente>>;
  let estranho: Awaited<ReturnType<typeof cliente>>;

  beforeAll(async () => {
    e = await emissor(`Listada ${randomInt(1e6)} Indústria Ltda.`);
    outroEmissor = await emissor();
    inst = await instituicao('ESF');
    imf = await instituicao('IMF');
    const alheia = await instituicao('ESF');
    await consentir(e, [inst, imf]);
    await consentir(outroEmissor, [alheia]);
    cli = await cliente('ESF', [inst.cnpj]);
    estranho = await cliente('ESF', []);
  });

  const lista = (token: string, body: Record<string, unknown>) => send('POST', '/api/v1/emissor-consentimento/filtro', token, body);
  const ids = (r: { body: unknown }) => (r.body as { items: { id: string }[] }).items.map((i) => i.id);

  it('needs a filter, an end date with a start date, and the start not after the end (spec 3, 5.7)', async () => {
    expect(await lista(admin, {})).toMatchObject({ status: 400, body: { error: 'erroFiltro' } });
    expect(await lista(admin, { page: 1, perPage: 25, isAdminSefaz: true, isCliente: false })).toMatchObject({ status: 400, body: { error: 'erroFiltro' } });
    expect(await lista(admin, { dataInicial: '2026-01-01' })).toMatchObject({ status: 400, body: { error: 'dataFimMandatoria' } });
    expect(await lista(admin, { dataInicial: '2026-02-01', dataFinal: '2026-01-01' })).toMatchObject({ status: 400, body: { error: 'dataInicioMaiorDataFim', message: 'Data Início maior que Data Fim.' } });
    // An end date alone is a filter.
    expect((await lista(admin, { dataFinal: todayInBahia() })).status).toBe(200);
    const carrier = send('POST', '/api/v1/emissor-consentimento-transporte/filtro', admin, { transportador: -1 });
    expect(await carrier).toMatchObject({ status: 400, body: { error: 'erroFiltro' } });
    expect(await send('POST', '/api/v1/emissor-consentimento-transporte/filtro', admin, { dataInicial: '2026-01-01' })).toMatchObject({ status: 400, body: { error: 'dataFimMandatoria' } });
  });

  it('lists the twin’s demo carriers’ consents (infra/local/seed-consentimento.ts): active and ended, of each type', async () => {
    const got = await send('POST', '/api/v1/emissor-consentimento-transporte/filtro', admin, { dataFinal: todayInBahia(), perPage: 100 });
    const demo = (got.body as { items: { consentimentoNumeroContrato: string; situacao: string }[] }).items.filter((i) => /\/000\d$/.test(i.consentimentoNumeroContrato));
    expect(demo.length).toBeGreaterThanOrEqual(8);
    expect(new Set(demo.map((i) => i.situacao))).toEqual(new Set(['Ativo', 'Desativado']));
  });

  it('finds the issuer by each filter, with the status derived (spec 3, 4.3)', async () => {
    const hoje = todayInBahia();
    const cases: Record<string, unknown>[] = [
      { cnpjEmissor: e.base },
      { razaoSocialTransportadora: e.razaoSocial.slice(0, 12).toUpperCase() },
      { cnpjTransportadora: e.cnpj },
      { cnpjTransportadora: e.base },
      { numeroContrato: `${e.base}/1` },
      { dataInicial: hoje, dataFinal: hoje, cnpjEmissor: e.base },
      { situacao: 1, cnpjEmissor: e.base },
      { uf: 'BA', cnpjEmissor: e.base },
      { tipoCliente: 2, cnpjEmissor: e.base },
      { cnpjCliente: cli.cnpj },
    ];
    for (const body of cases) expect(ids(await lista(admin, body)), JSON.stringify(body)).toContain(e.base);
    for (const body of [{ situacao: 0, cnpjEmissor: e.base }, { uf: 'SP', cnpjEmissor: e.base }, { tipoCliente: 3, cnpjEmissor: e.base }, { cnpjCliente: estranho.cnpj }]) {
      expect(ids(await lista(admin, body)), JSON.stringify(body)).not.toContain(e.base);
    }
    const row = (await lista(admin, { cnpjEmissor: e.base })).body as { items: Record<string, unknown>[] };
    expect(row.items[0]).toMatchObject({ id: e.base, cnpj: e.cnpj, uf: 'BA', situacao: 'Ativo', termoFaturaMensal: true, dataVigenciaFinal: null, tipoCliente: ['ESF', 'IMF'] });
  });

  it('a client user sees only the consents naming an institution its client is authorised for', async () => {
    for (const role of ['cliente', 'cliente_web', 'avaliacao'] as const) {
      const token = await cli.usuario(role);
      const mine = ids(await lista(token, { dataFinal: todayInBahia() }));
      expect(mine, role).toContain(e.base);
      expect(mine, role).not.toContain(outroEmissor.base);
      expect((await lista(token, { cnpjCliente: estranho.cnpj })).body).toMatchObject({ error: 'clienteNaoPermitido' });
      const detalhe = await send('GET', `/api/v1/emissor-consentimento/${e.base}`, token);
      expect(detalhe.status).toBe(200);
      // Only its own institution in the detail.
      expect((detalhe.body as { instFinanceiras: { instituicaoFinanceira: { cnpj: string } }[] }).instFinanceiras.map((i) => i.instituicaoFinanceira.cnpj)).toEqual([inst.cnpj]);
      expect((await send('GET', `/api/v1/emissor-consentimento/${outroEmissor.base}`, token)).status).toBe(404);
      expect((await send('GET', `/api/v1/emissor-consentimento/${outroEmissor.base}/historico`, token)).status).toBe(404);
      const op = (await send('GET', '/api/v1/emissor-consentimento-opcoes', token)).body as { clientes: { cnpj: string }[]; emissores: { cnpj: string }[] };
      expect(op.clientes.map((c) => c.cnpj)).toEqual([cli.cnpj]);
      expect(op.emissores.map((x) => x.cnpj)).not.toContain(outroEmissor.base);
    }
    const nada = await estranho.usuario('cliente');
    expect(ids(await lista(nada, { dataFinal: todayInBahia() }))).toEqual([]);
    expect((await send('GET', `/api/v1/emissor-consentimento/${e.base}`, nada)).status).toBe(404);
  });

  it('the detail has the branches and institutions with their status; the removal makes the issuer Desativado', async () => {
    const d = await send('GET', `/api/v1/emissor-consentimento/${e.base}`, admin);
    expect(d).toMatchObject({ status: 200, body: { emissor: { id: e.base, situacao: 'Ativo' }, filiais: [{ cnpj: e.cnpj, situacao: 'Ativo' }] } });
    expect((d.body as { instFinanceiras: unknown[] }).instFinanceiras).toHaveLength(2);
    const x = await emissor();
    await consentir(x, [inst]);
    await send('POST', '/api/v1/emissor/desativar-termo-aceite-emissor', x.token, { termoFatMensal: false, termoCompartNfe: false });
    expect(ids(await lista(admin, { cnpjEmissor: x.base, situacao: 0 }))).toEqual([x.base]);
    expect(ids(await lista(admin, { cnpjEmissor: x.base, situacao: 1 }))).toEqual([]);
    // Still visible to the institution's client, as Desativado.
    const row = ((await lista(await cli.usuario('cliente'), { cnpjEmissor: x.base })).body as { items: { situacao: string; dataVigenciaFinal: string | null }[] }).items[0];
    expect(row).toMatchObject({ situacao: 'Desativado' });
    expect(row?.dataVigenciaFinal).not.toBeNull();
  });

  it('lists carrier consents by the carrier filters, type codes and status codes, within the client’s institutions', async () => {
    const at = new Date().toISOString();
    const contrato = `CT-${randomInt(1e9)}`;
    const doc = cnpjDe(base8());
    await putTransporte({ cnpjInst: inst.cnpj, id: randomUUID(), sacadorRazaoSocial: 'Transportes Consentidos Ltda.', sacadorDocumento: doc, sacadorUf: 'PE', numeroContrato: contrato, dataAssinatura: at, tipoTransportador: 1, createdAt: at });
    await putTransporte({ cnpjInst: inst.cnpj, id: randomUUID(), sacadorRazaoSocial: 'Sacador Encerrado ME', sacadorDocumento: doc, sacadorUf: 'PE', numeroContrato: `${contrato}-2`, dataAssinatura: at, dataVigenciaFinal: '2020-01-01T00:00:00.000Z', tipoTransportador: 0, createdAt: at });
    await putTransporte({ cnpjInst: base8(), id: randomUUID(), sacadorRazaoSocial: 'Alheio Ltda.', sacadorDocumento: doc, sacadorUf: 'PE', numeroContrato: `${contrato}-3`, dataAssinatura: at, createdAt: at });
    const t = (token: string, body: Record<string, unknown>) =>
      send('POST', '/api/v1/emissor-consentimento-transporte/filtro', token, body).then((r) => (r.body as { items: { consentimentoNumeroContrato: string; situacao: string }[] }).items.map((i) => `${i.consentimentoNumeroContrato}:${i.situacao}`));
    expect(await t(admin, { numeroContrato: contrato })).toHaveLength(3);
    expect(await t(admin, { numeroContrato: contrato, transportador: 1 })).toEqual([`${contrato}:Ativo`]);
    expect(await t(admin, { numeroContrato: contrato, transportador: -2 })).toEqual([`${contrato}-2:Desativado`]);
    expect(await t(admin, { numeroContrato: contrato, situacao: 2 })).toEqual([`${contrato}-2:Desativado`]);
    expect(await t(admin, { cnpjTransportadora: doc, razaoSocialTransportadora: 'transportes consentidos' })).toEqual([`${contrato}:Ativo`]);
    expect(await t(admin, { numeroContrato: contrato, uf: 'PE', cnpjCliente: cli.cnpj })).toHaveLength(2);
    expect(await t(await cli.usuario('cliente_web'), { numeroContrato: contrato })).toHaveLength(2);
    expect(await t(await estranho.usuario('cliente_web'), { numeroContrato: contrato })).toEqual([]);
  });
});

describe('every consent route with every role', () => {
  const principalFor = (role: Role, clienteId: string, emissorCnpj: string): Principal => ({
    userId: role === 'emissor' ? `emissor-${emissorCnpj}` : `walk-${role}`,
    name: `Caminhada ${role}`,
    tipo: role.startsWith('sefaz') ? 'S' : 'C',
    roles: [role],
    ...(role.startsWith('sefaz') ? { uf: 'BA' } : role === 'emissor' ? {} : { clienteId }),
  });

  it('answers each route only to its roles, and no client user reads a consent not naming its institution', async () => {
    const nosso = await emissor();
    const alheio = await emissor();
    const inst = await instituicao();
    const outra = await instituicao();
    await consentir(nosso, [inst]);
    await consentir(alheio, [outra]);
    const cli = await cliente('ESF', [inst.cnpj]);
    const bodies: Record<string, unknown> = {
      'consentimento.salvarTermo': { termoFatMensal: true, termoCompartNfe: true, filiais: [filial(nosso.cnpj)], inst_financeiras: [{ id: inst.id, termoFatMensal: true }] },
      'consentimento.removerTermo': { termoFatMensal: false, termoCompartNfe: false },
      'consentimento.filtrarEmissores': { dataFinal: todayInBahia() },
      'consentimento.filtrarTransporte': { dataFinal: todayInBahia() },
    };
    const routes = contractsOf(contratos) as AnyContract[];
    expect(routes.length).toBeGreaterThanOrEqual(8);
    for (const route of routes) {
      for (const role of ROLES) {
        // The issuer's own routes: the removal last, so that the others see a consent.
        if (route.id === 'consentimento.removerTermo') continue;
        const token = await tokenFor(principalFor(role, cli.clienteId, nosso.cnpj));
        for (const alvo of [nosso.base, alheio.base]) {
          const path = fillPath(route.path, { cnpj: alvo });
          const r = await send(route.method, path, token, route.method === 'GET' ? undefined : bodies[route.id]);
          const where = `${route.id} as ${role} (${alvo === nosso.base ? 'named' : 'not named'})`;
          if (!allows(route.access, [role])) {
            expect(r, where).toMatchObject({ status: 403, body: { error: 'acessoNegado' } });
            continue;
          }
          const cliente = role !== 'sefaz_admin' && role !== 'emissor';
          const escondido = cliente && alvo === alheio.base && route.path.includes('{cnpj}');
          expect(r.status, `${where}: ${JSON.stringify(r.body)}`).toBe(escondido ? 404 : 200);
          const text = JSON.stringify(r.body);
          if (cliente) {
            // Nothing of the consent that does not name the client's institution, on any route.
            expect(text, where).not.toContain(alheio.base);
            expect(text, where).not.toContain(outra.cnpj);
          }
          if (!route.path.includes('{cnpj}')) break;
        }
      }
    }
    for (const role of ROLES) {
      const r = await send('POST', '/api/v1/emissor/desativar-termo-aceite-emissor', await tokenFor(principalFor(role, cli.clienteId, nosso.cnpj)), bodies['consentimento.removerTermo']);
      if (role === 'emissor') expect(r.status).toBe(200);
      else expect(r).toMatchObject({ status: 403, body: { error: 'acessoNegado' } });
    }
  });
});

describe('the billing look-ups answer only with the issuer’s consent', () => {
  it('consent present: answered and charged; removed: refused with the reason, not charged', async () => {
    const e = await emissor('Emissora Faturamento Consentido Ltda.');
    const inst = await instituicao();
    const cli = await cliente('ESF', [inst.cnpj]);
    const emissao = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 19) + '-03:00';
    const docs = Array.from({ length: 3 }, (_, i) => nfeXml({ cUF: CUF, numero: 610_000 + randomInt(300_000) + i, emitente: e.cnpj, destinatario: { cnpj: cnpjDe(base8()) }, emissao }));
    const nsu = 5_000_000 + randomInt(1_000_000);
    await ingerir(UF, docs.map((d, i) => ({ nsu: String(nsu + i), schema: 'procNFe_v4.00.xsd', xml: d.xml })));
    esquecerCache();
    const web = await cli.usuario('cliente_web');
    const hoje = new Date().toISOString().slice(0, 10);
    const inicio = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const pedido = { cnpjBaseInstFin: inst.cnpj, cnpjEmitente: e.cnpj, dataInicio: inicio, dataFim: hoje };
    const contado = async () => (await consumoDoCliente(cli.clienteId, monthOf(new Date()))).filter((c) => c.servico === 5).reduce((s, c) => s + c.requisicoes, 0);

    const sem = await send('POST', '/api/v1/faturamento/1', web, pedido);
    expect(sem).toMatchObject({
      status: 403,
      body: { error: 'semConsentimento', message: `O emitente ${e.cnpj} não possui consentimento ativo para compartilhar o faturamento com a instituição financeira ${inst.cnpj}.` },
    });
    expect(await contado()).toBe(0);

    await consentir(e, [inst]);
    expect(await send('POST', '/api/v1/faturamento/1', web, pedido)).toMatchObject({ status: 200, body: { cnpjEmitente: e.cnpj, quantidade: 3 } });
    expect(await contado()).toBe(1);
    // The institution's monthly billing switched off: refused again.
    await send('POST', '/api/v1/emissor/termo-aceite-emissor', e.token, { termoFatMensal: true, termoCompartNfe: true, filiais: [filial(e.cnpj)], inst_financeiras: [{ id: inst.id, termoFatMensal: false }] });
    expect((await send('POST', '/api/v1/faturamento/1', web, pedido)).body).toMatchObject({ error: 'semConsentimento' });
    await send('POST', '/api/v1/emissor/termo-aceite-emissor', e.token, { termoFatMensal: true, termoCompartNfe: true, filiais: [filial(e.cnpj)], inst_financeiras: [{ id: inst.id, termoFatMensal: true }] });
    expect((await send('POST', '/api/v1/faturamento/1', web, pedido)).status).toBe(200);
    expect(await contado()).toBe(2);

    // Removed: the very next look-up is refused, and not charged; the CSV batch says why on its line.
    expect((await send('POST', '/api/v1/emissor/desativar-termo-aceite-emissor', e.token, { termoFatMensal: false, termoCompartNfe: false })).status).toBe(200);
    expect(await send('POST', '/api/v1/faturamento/1', web, pedido)).toMatchObject({ status: 403, body: { error: 'semConsentimento' } });
    const [a, m, d] = inicio.split('-');
    const [a2, m2, d2] = hoje.split('-');
    const lote = await send('POST', '/api/v1/faturamento/lote/1', web, { lista: ['CNPJ_BASE_INST_FIN;CNPJ_EMIT;DATA_INICIO;DATA_FIM', `${inst.cnpj};${e.cnpj};${d}/${m}/${a};${d2}/${m2}/${a2}`] });
    expect(lote.status).toBe(200);
    expect(String(lote.body)).toContain('não possui consentimento ativo');
    expect(await contado()).toBe(2);
  });
});
