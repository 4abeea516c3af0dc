import type { Principal } from '@plac/shared/access';
import { monthOf, nextMonth, todayInBahia } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from './http';
import { sefazToken } from './people';
import { bearer, tokenFor } from './session';

/**
 * Sharing groups (spec 3, 4.2, 5.2, 7.3, 7.4): the demo timeline (deactivated, current), a draft made,
 * edited and removed, every rule of 5.2 refused with its message and nothing written, a group in force
 * changed only in name, accounts and agreements (audited), and concurrent creates leaving one draft.
 * The timeline is one per platform: the tests run in order and each leaves no draft.
 */

interface Beneficiado {
  idBeneficiado: string;
  idParticipante: string;
  nomeParticipante: string;
  tipo: 'SEFAZ' | 'PARTICIPANTE' | 'RESIDUO';
  percentualRateio: number;
  vigenciaInicial: string;
  vigenciaFinal: string | null;
  convenioAtivo: boolean | null;
  conta: { banco: string; agencia: string; dvAgencia: string; conta: string; dvConta: string; contaAtiva: boolean; nomeBanco: string | null } | null;
}
interface Grupo {
  id: string;
  descricao: string;
  dtVigenciaInicial: string;
  dtVigenciaFinal: string | null;
  situacao: string;
  percentualSefaz: number;
  revisao: number;
  beneficiados: Beneficiado[];
}

const outroAdmin: Principal = { userId: 'rateio-admin-2', name: 'Segunda Administradora', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
let admin: string;
let admin2: string;

beforeAll(async () => {
  admin = await sefazToken();
  admin2 = await tokenFor(outroAdmin);
});

const send = (method: string, path: string, token: string, body?: unknown) =>
  call(path, { method, headers: { 'content-type': 'application/json', ...bearer(token) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

const M = monthOf(new Date());

async function vigente(): Promise<Grupo> {
  const { status, body } = await send('GET', '/api/v1/grupo-rateio/beneficiados/vigente', admin);
  expect(status, JSON.stringify(body)).toBe(200);
  return body as Grupo;
}

async function semElaboracao() {
  const [existe] = (await send('GET', '/api/v1/grupo-rateio/verificar/elaboracao', admin)).body as [boolean];
  if (existe) expect((await send('DELETE', '/api/v1/grupo-rateio/elaboracao', admin)).status).toBe(200);
}

function novoGrupo(overrides: Record<string, unknown> = {}) {
  return {
    descricao: 'Rateio de Teste',
    vigenciaFinalVigente: M,
    vigenciaInicial: nextMonth(M),
    percentualSefaz: 50,
    beneficiados: [
      { idParticipante: 'sefaz-BA', nomeParticipante: 'SEFAZ BA', percentualRateio: 50, tipo: 'SEFAZ', conta: { banco: '001', agencia: '3832', dvAgencia: '1', conta: '100200', dvConta: '0' } },
      { idParticipante: 'fatec', nomeParticipante: 'FATEC', percentualRateio: 40, tipo: 'PARTICIPANTE' },
      { idParticipante: null, nomeParticipante: 'Participante Novo de Teste', percentualRateio: 10, tipo: 'RESIDUO' },
    ],
    ...overrides,
  };
}

describe('sharing groups', () => {
  it('list the demo groups, the current one with its beneficiaries, and the participants', async () => {
    await semElaboracao();
    const lista = (await send('GET', '/api/v1/grupo-rateio', admin)).body as Grupo[];
    expect(lista.map((g) => g.situacao)).toEqual(expect.arrayContaining(['VIGENTE', 'DESATIVADO']));
    const v = await vigente();
    expect(v.percentualSefaz).toBeGreaterThan(0);
    expect(v.beneficiados.filter((b) => b.tipo === 'SEFAZ').every((b) => b.percentualRateio === v.percentualSefaz && b.convenioAtivo !== null)).toBe(true);
    expect(v.beneficiados.filter((b) => b.tipo !== 'SEFAZ').every((b) => b.convenioAtivo === null)).toBe(true);
    expect(v.beneficiados.find((b) => b.conta)?.conta?.nomeBanco).toBeTruthy();
    const desativado = lista.find((g) => g.situacao === 'DESATIVADO')!;
    expect((await send('GET', `/api/v1/grupo-rateio/verificar/desativado/${desativado.id}`, admin)).body).toEqual([true]);
    expect((await send('GET', `/api/v1/grupo-rateio/verificar/desativado/${v.id}`, admin)).body).toEqual([false]);
    const participantes = (await send('GET', '/api/v1/participante', admin)).body as { id: string; sefaz: boolean; uf: string | null }[];
    expect(participantes.filter((p) => p.sefaz)).toHaveLength(27);
    expect(participantes.find((p) => p.id === 'sefaz-BA')).toMatchObject({ sefaz: true, uf: 'BA' });
  });

  it('refuses each rule of 5.2 with its message, writing nothing', async () => {
    await semElaboracao();
    const antes = await vigente();
    const refused = async (body: unknown, key: string) => {
      const r = await send('POST', '/api/v1/grupo-rateio', admin, body);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      return r.body as { error?: string; message?: string; errors?: Record<string, string[]> };
      void key;
    };
    const b = novoGrupo().beneficiados;
    expect((await refused(novoGrupo({ descricao: '  ' }), '')).errors?.descricao).toEqual(['O campo Nome do Grupo é obrigatório.']);
    expect(await refused(novoGrupo({ beneficiados: b.slice(0, 2) }), '')).toMatchObject({ error: 'residuoObrigatorio', message: MESSAGES.residuoObrigatorio });
    expect(await refused(novoGrupo({ percentualSefaz: 49 }), '')).toMatchObject({ error: 'percentualNaoTotaliza', message: 'O rateio do percentual não totaliza 100%. Por favor, verificar.' });
    expect((await refused(novoGrupo({ percentualSefaz: 0 }), '')).errors?.percentualSefaz).toEqual([MESSAGES.percentualInvalido]);
    expect((await refused(novoGrupo({ beneficiados: [{ ...b[0], percentualRateio: 101 }, b[1], b[2]] }), '')).errors).toBeDefined();
    expect(await refused(novoGrupo({ beneficiados: [b[1], b[2]], percentualSefaz: 50 }), '')).toMatchObject({ error: 'minimoSefaz' });
    expect(await refused(novoGrupo({ beneficiados: [{ ...b[0], convenioAtivo: false }, b[1], b[2]] }), '')).toMatchObject({ error: 'minimoSefazAtivo' });
    expect(await refused(novoGrupo({ beneficiados: [...b, { ...b[1], percentualRateio: 1 }] }), '')).toMatchObject({ error: 'participanteExistente' });
    expect(await refused(novoGrupo({ beneficiados: [b[0], b[1], { ...b[2], nomeParticipante: ' ' }] }), '')).toMatchObject({ error: 'participanteNomeObrigatorio' });
    expect(await refused(novoGrupo({ beneficiados: [b[0], b[1], { ...b[2], tipo: 'SEFAZ' }] }), '')).toMatchObject({ error: 'participanteNovoSefaz' });
    expect(await refused(novoGrupo({ beneficiados: [b[0], b[1], { ...b[2], tipo: 'RESIDUO' }, { idParticipante: null, nomeParticipante: 'Outro Resíduo', percentualRateio: 1, tipo: 'RESIDUO' }] }), '')).toMatchObject({ error: 'residuoUnico' });
    const dvLongo = await refused(novoGrupo({ beneficiados: [{ ...b[0], conta: { ...b[0]!.conta, dvAgencia: '12' } }, b[1], b[2]] }), '');
    expect(JSON.stringify(dvLongo)).toContain(MESSAGES.digitoVerificadorInvalido);
    expect(await refused(novoGrupo({ vigenciaInicial: nextMonth(nextMonth(M)) }), '')).toMatchObject({ error: 'vigenciaRateioInvalida' });
    expect(await refused(novoGrupo({ vigenciaFinalVigente: '2000-01', vigenciaInicial: '2000-02' }), '')).toMatchObject({ error: 'vigenciaRateioInvalida' });
    expect((await send('GET', '/api/v1/grupo-rateio/verificar/elaboracao', admin)).body).toEqual([false]);
    expect((await vigente()).dtVigenciaFinal).toBe(antes.dtVigenciaFinal);
  });

  it('creates a draft that closes the current group, refuses a second one, edits and removes it', async () => {
    await semElaboracao();
    const criado = await send('POST', '/api/v1/grupo-rateio', admin, novoGrupo());
    expect(criado.status, JSON.stringify(criado.body)).toBe(201);
    expect(criado.body).toEqual([true, 'Grupo de Rateio e Beneficiados cadastrados com êxito.']);
    const v = await vigente();
    expect(v.dtVigenciaFinal).toBe(M);
    const segundo = await send('POST', '/api/v1/grupo-rateio', admin, novoGrupo());
    expect(segundo.status).toBe(409);
    expect(segundo.body).toMatchObject({ error: 'grupoRateioEmElaboracao', message: 'Já existe uma grupo de rateio em elaboração.' });

    const lista = (await send('GET', '/api/v1/grupo-rateio', admin)).body as Grupo[];
    const draftResumo = lista.find((g) => g.situacao === 'ELABORACAO')!;
    const draft = (await send('GET', `/api/v1/grupo-rateio/beneficiados/${draftResumo.id}`, admin)).body as Grupo;
    expect(draft.dtVigenciaInicial).toBe(nextMonth(M));
    expect(draft.beneficiados.map((b) => b.nomeParticipante)).toEqual(['SEFAZ BA', 'FATEC', 'Participante Novo de Teste']);

    // Later start (the current group's end follows), PE added as SEFAZ, the new participant's share moved to FATEC... and the residue kept.
    const inicio = nextMonth(nextMonth(M));
    const beneficiados = [
      ...draft.beneficiados.map((b) => ({ beneficiadoId: b.idBeneficiado, idParticipante: b.idParticipante, nomeParticipante: b.nomeParticipante, percentualRateio: b.tipo === 'PARTICIPANTE' ? 35 : b.percentualRateio, tipo: b.tipo, convenioAtivo: b.convenioAtivo ?? undefined, conta: b.conta })),
      { beneficiadoId: null, idParticipante: 'sefaz-PE', nomeParticipante: 'SEFAZ PE', percentualRateio: 50, tipo: 'SEFAZ' },
      { beneficiadoId: null, idParticipante: null, nomeParticipante: 'Mais Um Participante', percentualRateio: 5, tipo: 'PARTICIPANTE' },
    ];
    const upd = await send('PUT', '/api/v1/grupo-rateio', admin, {
      grupoRateio: { idGrupoRateio: draft.id, descricao: 'Rateio de Teste Editado', vigenciaInicial: inicio, percentualSefaz: 50, revisao: draft.revisao },
      beneficiados,
    });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(upd.body).toEqual([true, 'Grupo de Rateio e Beneficiados atualizados com êxito.']);
    expect((await vigente()).dtVigenciaFinal).toBe(M === inicio ? M : nextMonth(M));
    const editado = (await send('GET', `/api/v1/grupo-rateio/beneficiados/${draft.id}`, admin)).body as Grupo;
    expect(editado.descricao).toBe('Rateio de Teste Editado');
    expect(editado.beneficiados).toHaveLength(5);

    // A stale form is refused; removing every SEFAZ beneficiary is refused.
    const stale = await send('PUT', '/api/v1/grupo-rateio', admin, { grupoRateio: { idGrupoRateio: draft.id, descricao: 'X', vigenciaInicial: inicio, percentualSefaz: 50, revisao: draft.revisao }, beneficiados });
    expect(stale.status).toBe(409);
    const semSefaz = await send('PUT', '/api/v1/grupo-rateio', admin, {
      grupoRateio: { idGrupoRateio: draft.id, descricao: 'X', vigenciaInicial: inicio, percentualSefaz: 50 },
      beneficiados: editado.beneficiados.map((b) => ({ beneficiadoId: b.idBeneficiado, idParticipante: b.idParticipante, nomeParticipante: b.nomeParticipante, percentualRateio: b.percentualRateio, tipo: b.tipo, excluir: b.tipo === 'SEFAZ' })),
    });
    expect(semSefaz.body).toMatchObject({ error: 'minimoSefaz' });

    const historico = (await send('GET', `/api/v1/beneficiado/historico/${draft.id}`, admin)).body as { acao: string; por: string }[];
    expect(historico.map((h) => h.acao)).toEqual(expect.arrayContaining(['Cadastro', 'Vigência inicial', 'Nome', 'Beneficiado incluído']));

    const removido = await send('DELETE', '/api/v1/grupo-rateio/elaboracao', admin);
    expect(removido.body).toEqual([true, 'Grupo Rateio em elaboração removido com sucesso.']);
    expect((await vigente()).dtVigenciaFinal).toBeNull();
    expect((await send('DELETE', '/api/v1/grupo-rateio/elaboracao', admin)).status).toBe(404);
  });

  it('a group in force changes only in name, accounts and agreements, each in its history', async () => {
    await semElaboracao();
    const v = await vigente();
    const corpo = (mudar: (b: Beneficiado) => Record<string, unknown> = () => ({}), extra: Record<string, unknown> = {}) => ({
      grupoRateio: { idGrupoRateio: v.id, descricao: v.descricao, vigenciaInicial: v.dtVigenciaInicial, percentualSefaz: v.percentualSefaz, ...extra },
      beneficiados: v.beneficiados.map((b) => ({ beneficiadoId: b.idBeneficiado, idParticipante: b.idParticipante, nomeParticipante: b.nomeParticipante, percentualRateio: b.percentualRateio, tipo: b.tipo, convenioAtivo: b.convenioAtivo ?? undefined, conta: b.conta, ...mudar(b) })),
    });
    const fatec = v.beneficiados.find((b) => b.tipo === 'PARTICIPANTE')!;
    expect((await send('PUT', '/api/v1/grupo-rateio', admin, corpo((b) => (b === fatec ? { percentualRateio: fatec.percentualRateio - 1 } : {}), { percentualSefaz: v.percentualSefaz + 1 }))).body).toMatchObject({ error: 'grupoRateioImutavel' });
    expect((await send('PUT', '/api/v1/grupo-rateio', admin, corpo((b) => (b === fatec ? { excluir: true } : {})))).body).toMatchObject({ error: 'grupoRateioImutavel' });
    const ativos = v.beneficiados.filter((b) => b.tipo === 'SEFAZ' && b.convenioAtivo);
    expect((await send('PUT', '/api/v1/grupo-rateio', admin, corpo((b) => (b.tipo === 'SEFAZ' ? { convenioAtivo: false } : {})))).body).toMatchObject({ error: 'minimoSefazAtivo' });

    // PE: the repasse tests use BA and RO, whose agreements must stay as seeded.
    const alvo = ativos.find((b) => b.idParticipante === 'sefaz-PE')!;
    const desativado = await send('PUT', '/api/v1/grupo-rateio', admin, corpo((b) => (b === alvo ? { convenioAtivo: false } : {}), { descricao: `${v.descricao} ` }));
    expect(desativado.status, JSON.stringify(desativado.body)).toBe(200);
    const depois = await vigente();
    const b1 = depois.beneficiados.find((b) => b.idBeneficiado === alvo.idBeneficiado)!;
    expect(b1).toMatchObject({ convenioAtivo: false, vigenciaFinal: todayInBahia() });

    const v2 = await vigente();
    const reativado = await send('PUT', '/api/v1/grupo-rateio', admin, {
      grupoRateio: { idGrupoRateio: v2.id, descricao: v2.descricao, vigenciaInicial: v2.dtVigenciaInicial, percentualSefaz: v2.percentualSefaz },
      beneficiados: v2.beneficiados.map((b) => ({ beneficiadoId: b.idBeneficiado, idParticipante: b.idParticipante, nomeParticipante: b.nomeParticipante, percentualRateio: b.percentualRateio, tipo: b.tipo, convenioAtivo: b.idBeneficiado === alvo.idBeneficiado ? true : (b.convenioAtivo ?? undefined), conta: b.conta })),
    });
    expect(reativado.status).toBe(200);
    expect((await vigente()).beneficiados.find((b) => b.idBeneficiado === alvo.idBeneficiado)).toMatchObject({ convenioAtivo: true, vigenciaInicial: todayInBahia(), vigenciaFinal: null });
    const historico = (await send('GET', `/api/v1/beneficiado/historico/${v.id}`, admin)).body as { acao: string }[];
    expect(historico.map((h) => h.acao)).toEqual(expect.arrayContaining(['Convênio desativado', 'Convênio reativado']));
  });

  it('three creates at the same moment leave exactly one draft', async () => {
    for (let round = 0; round < 2; round++) {
      await semElaboracao();
      const results = await Promise.all([admin, admin2, admin].map((t, i) => send('POST', '/api/v1/grupo-rateio', t, novoGrupo({ descricao: `Concorrente ${round}-${i}` }))));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409).every((r) => (r.body as { error: string }).error === 'grupoRateioEmElaboracao')).toBe(true);
      const lista = (await send('GET', '/api/v1/grupo-rateio', admin)).body as Grupo[];
      expect(lista.filter((g) => g.situacao === 'ELABORACAO')).toHaveLength(1);
    }
    await semElaboracao();
  });
});
