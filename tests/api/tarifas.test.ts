import type { Principal } from '@plac/shared/access';
import { monthOf, nextMonth, previousMonth } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, twinUrl } from './http';
import { bearer, tokenFor } from './session';
import { concluirLogin } from '../../infra/local/segundo-fator-demo';

/**
 * Bands and tariffs: the demo timeline (history, current, draft), the transitions of spec 3 section
 * 4.1 through the API, the validations of 5.1, immutability of what has been in force, and two
 * administrators saving conflicting drafts at the same moment (exactly one draft remains).
 *
 * The timeline is one per platform: the tests of this file run in order and each leaves it with the
 * current version open and no draft.
 */

const outroAdmin: Principal = { userId: 'tarifas-admin-2', name: 'Segunda Administradora', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const gestor: Principal = { userId: 'tarifas-gestor', name: 'Gestor', tipo: 'S', roles: ['sefaz_gestor'], uf: 'BA' };

let admin: string;
let admin2: string;

beforeAll(async () => {
  const login = await call('/api/v1/authenticate/sefaz', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@plac.local', password: 'Plac@2026!' }),
  });
  // The administrator has the demo second factor: the code step follows the password (issue 42).
  admin = (await concluirLogin(twinUrl(), login.body as { token: string })).token;
  admin2 = await tokenFor(outroAdmin);
});

const send = (method: string, path: string, token: string, body?: unknown) =>
  call(path, { method, headers: { 'content-type': 'application/json', ...bearer(token) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

interface Versao {
  tipo: string;
  grupoFaixa: { id: string; descricao: string; dtVigenciaInicial: string; dtVigenciaFinal: string | null; faixas: { faixa: string; intervalo: string; faixaId: string }[]; desativado: boolean; createdBy: string | null; updatedBy: string | null };
  grupoTarifa: { id: string; descricao: string; assinatura: number; dtVigenciaInicial: string; dtVigenciaFinal: string | null; rows: { servId: number; serv: string; valores: { idFaixa: string; valor: number }[] }[]; createdBy: string | null; updatedBy: string | null };
}
interface Tarifacao {
  mesAtual: string;
  revisao: number;
  vigente: Versao | null;
  elaboracao: Versao | null;
  historico: Versao[];
  novoPermitido: boolean;
}

async function tarifacao(): Promise<Tarifacao> {
  const { status, body } = await send('GET', '/api/v1/faixa-cobranca', admin);
  expect(status, JSON.stringify(body)).toBe(200);
  return body as Tarifacao;
}

/** Removes whatever draft exists (the demo one, or one a test left). */
async function semElaboracao() {
  const t = await tarifacao();
  if (t.elaboracao) expect((await send('DELETE', `/api/v1/faixa-cobranca/tarifas/elaboracao/${t.elaboracao.grupoTarifa.id}`, admin)).status).toBe(200);
}

const M = monthOf(new Date());
const servIds = [1, 2, 3, 4, 5, 6, 7, 8, 9];

function novoGrupo(overrides: { faixa?: Record<string, unknown>; tarifa?: Record<string, unknown> } = {}) {
  return {
    faixa: {
      nomeGrupoFaixa: 'Faixas de Teste',
      faixaPromocional: 1,
      vigenciaFinalFaixaAtual: M,
      vigenciaInicial: nextMonth(M),
      faixas: [
        { qtdMinima: 1, qtdMaxima: 1000 },
        { qtdMinima: 1001, qtdMaxima: null },
      ],
      ...overrides.faixa,
    },
    tarifa: {
      nomeGrupoTarifa: 'Tarifas de Teste',
      assinaturaMinima: 123_456,
      tarifas: servIds.map((servId) => ({ servId, valores: [200 + servId, 100 + servId] })),
      ...overrides.tarifa,
    },
  };
}

describe('bands and tariffs', () => {
  it('offers the demo timeline: a history version, the current one and a draft, with every service', async () => {
    const t = await tarifacao();
    expect(t.mesAtual).toBe(M);
    expect(t.vigente?.tipo).toBe('VIGENTE');
    expect(t.vigente!.grupoTarifa.rows.map((r) => r.servId)).toEqual(servIds);
    expect(t.vigente!.grupoFaixa.faixas.map((f) => [f.faixa, f.intervalo])).toEqual([
      ['Faixa 1', '1 - 5000'],
      ['Faixa 2', '5001 - 50000'],
      ['Faixa 3', '50001 - 500000'],
      ['Faixa 4', '500001 -'],
    ]);
    expect(t.vigente!.grupoTarifa.rows[0]!.valores.map((v) => v.valor)).toEqual([150, 120, 95, 80]);
    expect(t.historico.length).toBeGreaterThanOrEqual(1);
    const historico = t.historico.find((h) => h.grupoFaixa.id === 'demo-gf-historico')!;
    expect(historico.grupoFaixa.desativado).toBe(true);
    expect(historico.grupoTarifa.createdBy).toBe('dados de demonstração');
    expect((await send('GET', '/api/v1/faixa-cobranca/verificar/desativado/demo-gf-historico', admin)).body).toEqual([true]);
    expect((await send('GET', `/api/v1/faixa-cobranca/verificar/desativado/${t.vigente!.grupoFaixa.id}`, admin)).body).toEqual([false]);
    expect((await send('GET', '/api/v1/faixa-cobranca/verificar/desativado/nao-existe', admin)).status).toBe(404);
    const vigente = await send('GET', '/api/v1/faixa-cobranca/tarifas/vigente', admin);
    expect(vigente.body).toEqual(t.vigente);
    const versao = await send('GET', `/api/v1/faixa-cobranca/${historico.grupoFaixa.id}/tarifas/${historico.grupoTarifa.id}`, admin);
    expect(versao.body).toEqual(historico);
    const servicos = await send('GET', '/api/v1/grupo-tarifa/servicos', admin);
    expect((servicos.body as { id: number }[]).map((s) => s.id)).toEqual(servIds);
    // sefaz_admin only
    expect((await send('GET', '/api/v1/faixa-cobranca', await tokenFor(gestor))).status).toBe(403);
  });

  it('removes a draft on the current bands: the current version has no end again', async () => {
    let t = await tarifacao();
    if (!t.elaboracao) {
      const criado = await send('POST', '/api/v1/faixa-cobranca/tarifas', admin, {
        idGrupoFaixa: t.vigente!.grupoFaixa.id,
        idGrupoTarifaVigente: t.vigente!.grupoTarifa.id,
        vigenciaFinalGrupoTarifaAtual: M,
        vigenciaInicial: nextMonth(M),
        nomeGrupoTarifa: 'Nova tarifa',
        assinaturaMinima: 1000,
        tarifas: [{ servId: 1, valores: [1, 2, 3, 4] }],
      });
      expect(criado.status, JSON.stringify(criado.body)).toBe(201);
      t = await tarifacao();
    }
    expect(t.elaboracao!.grupoFaixa.id).toBe(t.vigente!.grupoFaixa.id);
    expect((await send('GET', '/api/v1/grupo-tarifa/verificar/elaboracao', admin)).body).toEqual([true]);
    expect(t.novoPermitido).toBe(false);
    // Another id: nothing is removed.
    expect((await send('DELETE', '/api/v1/faixa-cobranca/tarifas/elaboracao/outro', admin)).status).toBe(404);
    const removido = await send('DELETE', `/api/v1/faixa-cobranca/tarifas/elaboracao/${t.elaboracao!.grupoTarifa.id}`, admin);
    expect(removido).toMatchObject({ status: 200, body: { message: 'Tarifa em elaboração removido com sucesso.' } });
    const depois = await tarifacao();
    expect(depois.elaboracao).toBeNull();
    expect(depois.vigente!.grupoTarifa.dtVigenciaFinal).toBeNull();
    expect(depois.novoPermitido).toBe(true);
    expect((await send('GET', '/api/v1/grupo-tarifa/verificar/elaboracao', admin)).body).toEqual([false]);
  });

  it('creates a new group as a draft, ending the current one; edits it (bands, values, start); refuses a second; removes it', async () => {
    await semElaboracao();
    const antes = await tarifacao();
    const criado = await send('POST', '/api/v1/faixa-cobranca', admin, novoGrupo());
    expect(criado).toMatchObject({ status: 201, body: [true, 'Faixas de Cobrança e Tarifação cadastrados com êxito.'] });

    let t = await tarifacao();
    expect(t.vigente!.grupoTarifa.id).toBe(antes.vigente!.grupoTarifa.id);
    expect(t.vigente!.grupoTarifa.dtVigenciaFinal).toBe(M);
    expect(t.vigente!.grupoFaixa.dtVigenciaFinal).toBe(M);
    const draft = t.elaboracao!;
    expect(draft.tipo).toBe('ELABORACAO');
    expect(draft.grupoFaixa.dtVigenciaInicial).toBe(nextMonth(M));
    expect(draft.grupoFaixa.faixas.map((f) => f.intervalo)).toEqual(['1 - 1000', '1001 -']);
    expect(draft.grupoTarifa).toMatchObject({ descricao: 'Tarifas de Teste', assinatura: 123_456, createdBy: 'Administradora Demo' });
    expect(draft.grupoTarifa.rows.find((r) => r.servId === 5)!.valores.map((v) => v.valor)).toEqual([205, 105]);

    // A second draft is refused, by either admin.
    const segundo = await send('POST', '/api/v1/faixa-cobranca', admin2, novoGrupo());
    expect(segundo).toMatchObject({ status: 409, body: { error: 'tarifacaoEmElaboracao', message: 'Já existe uma tarifação em elaboração.' } });

    // Edit: a third band, new values, start two months later: the current version's end follows.
    const inicio = nextMonth(nextMonth(nextMonth(M)));
    const editado = await send('PUT', '/api/v1/faixa-cobranca', admin2, {
      idGrupoFaixa: draft.grupoFaixa.id,
      idGrupoTarifa: draft.grupoTarifa.id,
      revisao: t.revisao,
      faixa: {
        nomeGrupoFaixa: 'Faixas de Teste (3)',
        faixaPromocional: null,
        vigenciaInicial: inicio,
        faixas: [
          { qtdMinima: 1, qtdMaxima: 1000 },
          { qtdMinima: 1001, qtdMaxima: 9999 },
          { qtdMinima: 10000, qtdMaxima: null },
        ],
      },
      tarifa: { nomeGrupoTarifa: 'Tarifas de Teste', assinaturaMinima: 0, tarifas: [{ servId: 1, valores: [300, 200, 100] }] },
    });
    expect(editado).toMatchObject({ status: 200, body: [true, 'Faixas de Cobrança e Tarifação atualizadas com êxito.'] });
    t = await tarifacao();
    expect(t.vigente!.grupoTarifa.dtVigenciaFinal).toBe(previousMonth(inicio));
    expect(t.elaboracao!.grupoFaixa).toMatchObject({ descricao: 'Faixas de Teste (3)', dtVigenciaInicial: inicio, faixaPromocionalId: null, createdBy: 'Administradora Demo', updatedBy: 'Segunda Administradora' });
    expect(t.elaboracao!.grupoFaixa.faixas.map((f) => f.intervalo)).toEqual(['1 - 1000', '1001 - 9999', '10000 -']);
    expect(t.elaboracao!.grupoTarifa.rows.find((r) => r.servId === 1)!.valores.map((v) => v.valor)).toEqual([300, 200, 100]);
    expect(t.elaboracao!.grupoTarifa.rows.find((r) => r.servId === 2)!.valores.map((v) => v.valor)).toEqual([0, 0, 0]);

    // A stale form (the revision it was loaded at) is refused.
    const stale = await send('PUT', '/api/v1/faixa-cobranca', admin, { idGrupoFaixa: draft.grupoFaixa.id, idGrupoTarifa: draft.grupoTarifa.id, revisao: t.revisao - 1, ...novoGrupo() });
    expect(stale).toMatchObject({ status: 409, body: { error: 'tarifacaoAlterada' } });

    // Removing the last band: allowed while one remains.
    const menos = await send('PUT', '/api/v1/faixa-cobranca', admin, {
      idGrupoFaixa: draft.grupoFaixa.id,
      idGrupoTarifa: draft.grupoTarifa.id,
      faixa: { nomeGrupoFaixa: 'Faixas de Teste', faixaPromocional: 1, vigenciaInicial: inicio, faixas: [{ qtdMinima: 1, qtdMaxima: null }, { qtdMinima: 1001, qtdMaxima: null, excluir: true }] },
      tarifa: { nomeGrupoTarifa: 'Tarifas de Teste', assinaturaMinima: 0, tarifas: [{ servId: 1, valores: [300, 200] }] },
    });
    expect(menos.status, JSON.stringify(menos.body)).toBe(200);
    expect((await tarifacao()).elaboracao!.grupoTarifa.rows[0]!.valores).toEqual([{ idFaixa: '1', valor: 300 }]);

    const removido = await send('DELETE', `/api/v1/faixa-cobranca/tarifas/elaboracao/${draft.grupoTarifa.id}`, admin);
    expect(removido).toMatchObject({ status: 200, body: { message: 'Grupo Faixa em elaboração removido com sucesso.' } });
    t = await tarifacao();
    expect(t.elaboracao).toBeNull();
    expect(t.vigente!.grupoTarifa.dtVigenciaFinal).toBeNull();
    expect((await send('GET', `/api/v1/faixa-cobranca/verificar/desativado/${draft.grupoFaixa.id}`, admin)).status).toBe(404);
  });

  it('answers every validation of section 5.1 with its message', async () => {
    await semElaboracao();
    const refused = async (body: unknown, _key: string) => {
      const { status, body: answer } = await send('POST', '/api/v1/faixa-cobranca', admin, body);
      expect(status, JSON.stringify(answer)).toBe(400);
      return answer as { error?: string; message?: string; errors?: Record<string, string[]> } & { key?: string };
    };
    expect(await refused(novoGrupo({ faixa: { faixas: [{ qtdMinima: 1, qtdMaxima: 1 }] } }), '')).toMatchObject({ message: MESSAGES.faixaMaximaInvalida });
    expect(await refused(novoGrupo({ faixa: { faixas: [] } }), '')).toMatchObject({ message: 'Deve existir pelo menos uma faixa de cobrança.' });
    expect(await refused(novoGrupo({ faixa: { faixas: [{ qtdMinima: 2, qtdMaxima: 10 }] } }), '')).toMatchObject({ error: 'faixaSequenciaInvalida' });
    expect(await refused(novoGrupo({ faixa: { faixas: [{ qtdMinima: 1, qtdMaxima: 10 }, { qtdMinima: 12, qtdMaxima: null }] } }), '')).toMatchObject({ error: 'faixaSequenciaInvalida' });
    expect(await refused(novoGrupo({ faixa: { faixaPromocional: 3 } }), '')).toMatchObject({ message: 'Dados incorretos. Por gentileza, revise os dados enviados.' });
    expect((await refused(novoGrupo({ faixa: { nomeGrupoFaixa: '  ' } }), '')).errors).toEqual({ 'faixa.nomeGrupoFaixa': ['Campo obrigatório'] });
    expect((await refused(novoGrupo({ tarifa: { nomeGrupoTarifa: 'x'.repeat(101) } }), '')).errors?.['tarifa.nomeGrupoTarifa']).toBeDefined();
    expect((await refused(novoGrupo({ tarifa: { assinaturaMinima: -1 } }), '')).errors?.['tarifa.assinaturaMinima']).toBeDefined();
    expect((await refused(novoGrupo({ tarifa: { assinaturaMinima: 1.5 } }), '')).errors?.['tarifa.assinaturaMinima']).toBeDefined();
    expect((await refused(novoGrupo({ tarifa: { tarifas: [{ servId: 1, valores: [0.5, 1] }] } }), '')).errors).toBeDefined();
    expect((await refused(novoGrupo({ tarifa: { tarifas: [{ servId: 1, valores: [-1, 1] }] } }), '')).errors).toBeDefined();
    expect(await refused(novoGrupo({ tarifa: { tarifas: [{ servId: 99, valores: [1, 1] }] } }), '')).toMatchObject({ error: 'servicoDesconhecido' });
    // The current group ends this month or later; the new one starts the month after.
    expect(await refused(novoGrupo({ faixa: { vigenciaFinalFaixaAtual: previousMonth(M), vigenciaInicial: M } }), '')).toMatchObject({ error: 'vigenciaFinalInvalida' });
    expect(await refused(novoGrupo({ faixa: { vigenciaInicial: nextMonth(nextMonth(M)) } }), '')).toMatchObject({ error: 'vigenciaInicialInvalida' });
    expect(await refused(novoGrupo({ faixa: { vigenciaFinalFaixaAtual: null } }), '')).toMatchObject({ error: 'vigenciaFinalInvalida' });
    expect((await tarifacao()).elaboracao).toBeNull();
  });

  it('never changes a version that has been in force', async () => {
    await semElaboracao();
    const t = await tarifacao();
    for (const v of [t.vigente!, ...t.historico]) {
      const { status, body } = await send('PUT', '/api/v1/faixa-cobranca', admin, { idGrupoFaixa: v.grupoFaixa.id, idGrupoTarifa: v.grupoTarifa.id, ...novoGrupo() });
      expect({ status, body }).toMatchObject({ status: 400, body: { error: 'tarifacaoImutavel' } });
    }
    // A draft on the current bands cannot change those bands.
    expect(
      (
        await send('POST', '/api/v1/faixa-cobranca/tarifas', admin, {
          idGrupoFaixa: t.vigente!.grupoFaixa.id,
          idGrupoTarifaVigente: t.vigente!.grupoTarifa.id,
          vigenciaFinalGrupoTarifaAtual: M,
          vigenciaInicial: nextMonth(M),
          nomeGrupoTarifa: 'Nova tarifa',
          assinaturaMinima: 1000,
          tarifas: [],
        })
      ).status,
    ).toBe(201);
    const draft = (await tarifacao()).elaboracao!;
    const mudarFaixas = await send('PUT', '/api/v1/faixa-cobranca', admin, {
      idGrupoFaixa: draft.grupoFaixa.id,
      idGrupoTarifa: draft.grupoTarifa.id,
      ...novoGrupo(),
    });
    expect(mudarFaixas).toMatchObject({ status: 400, body: { error: 'faixasVigentesSomenteLeitura' } });
    expect(await tarifacao()).toMatchObject({ vigente: t.vigente ? { grupoFaixa: { faixas: t.vigente.grupoFaixa.faixas } } : null });
    await semElaboracao();
    const depois = await tarifacao();
    expect(depois.historico).toEqual(t.historico);
    expect(depois.vigente).toEqual(t.vigente);
  });

  it('two admins saving conflicting drafts at the same moment leave exactly one', async () => {
    await semElaboracao();
    const vigente = (await tarifacao()).vigente!;
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all([
        send('POST', '/api/v1/faixa-cobranca', admin, novoGrupo({ faixa: { nomeGrupoFaixa: 'Da primeira' } })),
        send('POST', '/api/v1/faixa-cobranca', admin2, novoGrupo({ faixa: { nomeGrupoFaixa: 'Da segunda', vigenciaFinalFaixaAtual: nextMonth(M), vigenciaInicial: nextMonth(nextMonth(M)) } })),
        send('POST', '/api/v1/faixa-cobranca/tarifas', admin2, {
          idGrupoFaixa: vigente.grupoFaixa.id,
          idGrupoTarifaVigente: vigente.grupoTarifa.id,
          vigenciaFinalGrupoTarifaAtual: M,
          vigenciaInicial: nextMonth(M),
          nomeGrupoTarifa: 'Tarifa da segunda',
          assinaturaMinima: 0,
          tarifas: [],
        }),
      ]);
      expect(answers.map((a) => a.status).sort(), JSON.stringify(answers.map((a) => a.body))).toEqual([201, 409, 409]);
      for (const lost of answers.filter((a) => a.status === 409)) expect(lost.body).toMatchObject({ error: 'tarifacaoEmElaboracao' });
      const t = await tarifacao();
      expect(t.elaboracao).not.toBeNull();
      // No gap, no overlap: the current version ends the month before the draft starts.
      expect(nextMonth(t.vigente!.grupoTarifa.dtVigenciaFinal!)).toBe(t.elaboracao!.grupoTarifa.dtVigenciaInicial);
      expect((await send('GET', '/api/v1/grupo-tarifa/verificar/elaboracao', admin)).body).toEqual([true]);
      await semElaboracao();
    }
    // Two admins removing and editing the same draft at once: one of them wins, the timeline stays whole.
    expect((await send('POST', '/api/v1/faixa-cobranca', admin, novoGrupo())).status).toBe(201);
    const draft = (await tarifacao()).elaboracao!;
    const [remocao, edicao] = await Promise.all([
      send('DELETE', `/api/v1/faixa-cobranca/tarifas/elaboracao/${draft.grupoTarifa.id}`, admin),
      send('PUT', '/api/v1/faixa-cobranca', admin2, {
        idGrupoFaixa: draft.grupoFaixa.id,
        idGrupoTarifa: draft.grupoTarifa.id,
        ...novoGrupo({ faixa: { vigenciaInicial: nextMonth(nextMonth(M)) } }),
      }),
    ]);
    expect(remocao.status).toBe(200);
    expect([200, 404]).toContain(edicao.status);
    const t = await tarifacao();
    expect(t.elaboracao).toBeNull();
    expect(t.vigente!.grupoTarifa.dtVigenciaFinal).toBeNull();
  });
});
