import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ROUTE_ACCESS } from '@plac/shared/access';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { setNavigator } from '../../lib/navigation';
import { PageShell } from '../../test/shell';
import { jsonResponse, pickOption, signInAs, stubApi } from '../../test/instituicoes';
import FaixaCobrancaFormPage from './FaixaCobrancaFormPage';
import FaixaCobrancaPage from './FaixaCobrancaPage';
import FaixaCobrancaViewPage from './FaixaCobrancaViewPage';

const MES = '2026-11';
const SERVICOS = [
  { id: 1, descricao: 'Consulta Fat-e por Chave de Acesso' },
  { id: 5, descricao: 'Consulta Faturamento NF-e' },
];
const audit = { createdBy: 'Ana', updatedBy: 'Bruno', createdAt: '2026-01-05T12:00:00.000Z', updatedAt: '2026-02-06T13:00:00.000Z' };

function versao(tipo: string, id: string, inicio: string, fim: string | null, faixas: [number, number | null][], valores: number[][], grupoFaixaId = `gf-${id}`) {
  const fs = faixas.map(([min, max], i) => ({ faixaId: String(i + 1), faixa: `Faixa ${i + 1}`, qtdMinima: min, qtdMaxima: max, intervalo: `${min} - ${max ?? ''}`.trimEnd() }));
  return {
    tipo,
    grupoFaixa: { id: grupoFaixaId, descricao: `Faixas ${id}`, dtVigenciaInicial: inicio, dtVigenciaFinal: fim, faixaPromocionalId: '1', faixas: fs, desativado: tipo === 'HISTORICO', ...audit },
    grupoTarifa: {
      id: `gt-${id}`,
      grupoFaixaId,
      descricao: `Tarifas ${id}`,
      assinatura: 75_000,
      dtVigenciaInicial: inicio,
      dtVigenciaFinal: fim,
      rows: SERVICOS.map((s, i) => ({ servId: s.id, serv: s.descricao, valores: fs.map((f, j) => ({ idFaixa: f.faixaId, valor: valores[i]![j]! })) })),
      ...audit,
    },
  };
}

const VIGENTE = versao('VIGENTE', 'vigente', '2026-06', null, [[1, 5000], [5001, null]], [[150, 120], [900, 750]]);
const HISTORICO = versao('HISTORICO', 'historico', '2025-09', '2026-05', [[1, 10000], [10001, null]], [[180, 150], [1000, 850]]);
const ELABORACAO = versao('ELABORACAO', 'elaboracao', '2027-01', null, [[1, 1000], [1001, null]], [[140, 110], [880, 730]]);

function tarifacao(overrides: Record<string, unknown> = {}) {
  return { mesAtual: MES, revisao: 7, vigente: VIGENTE, elaboracao: null, historico: [HISTORICO], novoPermitido: true, ...overrides };
}

function renderAt(name: 'faixa-cobranca' | 'faixa-cobranca-view' | 'faixa-cobranca-form' | 'faixa-cobranca-edit', state?: unknown) {
  const pages = { 'faixa-cobranca': FaixaCobrancaPage, 'faixa-cobranca-view': FaixaCobrancaViewPage, 'faixa-cobranca-form': FaixaCobrancaFormPage, 'faixa-cobranca-edit': FaixaCobrancaFormPage };
  const router = createMemoryRouter(
    [
      {
        path: '/app',
        element: <PageShell />,
        children: Object.entries(pages).map(([route, Page]) => ({ path: ROUTE_ACCESS[route as keyof typeof pages].path, element: <Page /> })),
      },
    ],
    { initialEntries: [{ pathname: `/app/${ROUTE_ACCESS[name].path}`, state }] },
  );
  setNavigator((to, options) => void router.navigate(to, options));
  render(<RouterProvider router={router} />);
  return router;
}

const api = (t: unknown, extra: Record<string, Response | ((call: { body: unknown }) => Response)> = {}) =>
  stubApi({ 'GET /api/v1/faixa-cobranca': jsonResponse(200, t), 'GET /api/v1/grupo-tarifa/servicos': jsonResponse(200, SERVICOS), ...extra });

const cell = (servico: string, faixa: number) => screen.getByLabelText(`${servico} — Faixa ${faixa}`) as HTMLInputElement;

describe('faixa-cobranca screens', { timeout: 30_000 }, () => {
  it('lists every version and opens the view', async () => {
    signInAs(['sefaz_admin']);
    api(tarifacao({ elaboracao: ELABORACAO, novoPermitido: false }));
    const router = renderAt('faixa-cobranca');
    const table = await screen.findByRole('table', { name: 'Faixas de Cobrança' });
    await within(table).findByText('Tarifas elaboracao');
    expect(within(table).getByText('Em elaboração')).toBeTruthy();
    expect(within(table).getByText('06/2026 – sem fim')).toBeTruthy();
    expect(within(table).getByText('09/2025 – 05/2026')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Nova Faixa de Cobrança' })).toBeNull();
    await userEvent.click(within(table).getByRole('button', { name: 'Visualizar Tarifas vigente' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/detalhe/faixaCobranca'));
  });

  it("view: Vigentes with 'min - max' headers and audit, Histórico rows expanding, Elaboração with edit and remove", async () => {
    signInAs(['sefaz_admin']);
    const calls = api(tarifacao({ elaboracao: ELABORACAO, novoPermitido: false }), {
      'DELETE /api/v1/faixa-cobranca/tarifas/elaboracao/gt-elaboracao': jsonResponse(200, { message: 'Grupo Faixa em elaboração removido com sucesso.' }),
    });
    const router = renderAt('faixa-cobranca-view');
    const vigentes = await screen.findByRole('table', { name: 'Tarifas vigentes' });
    expect(within(vigentes).getByRole('columnheader', { name: /Faixa 1 \(promocional\)\s*1 - 5\.000/ })).toBeTruthy();
    expect(within(vigentes).getByRole('columnheader', { name: /Faixa 2\s*5\.001 -/ })).toBeTruthy();
    expect(within(vigentes).getByRole('row', { name: /Consulta Faturamento NF-e R\$ 0,900 R\$ 0,750/ })).toBeTruthy();
    expect(screen.getByText('Assinatura mínima: R$ 750,00')).toBeTruthy();
    expect(screen.getAllByText('Bruno').length).toBeGreaterThan(0);

    await userEvent.click(screen.getByRole('tab', { name: 'Histórico' }));
    const linha = await screen.findByRole('button', { name: /Faixas historico \/ Tarifas historico — 09\/2025 – 05\/2026/ });
    expect(linha.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(linha);
    expect(await screen.findByRole('table', { name: 'Tarifas de Tarifas historico' })).toBeTruthy();

    await userEvent.click(screen.getByRole('tab', { name: 'Elaboração' }));
    expect(await screen.findByRole('table', { name: 'Tarifas em elaboração' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Remover' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Sim' }));
    expect(await screen.findByText('Grupo Faixa em elaboração removido com sucesso.')).toBeTruthy();
    expect(calls.of('DELETE', '/api/v1/faixa-cobranca/tarifas/elaboracao/gt-elaboracao')).toHaveLength(1);
    // Back on Vigentes once the draft is gone (this stub still answers it).
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Vigentes' }).getAttribute('aria-selected')).toBe('true'));

    await userEvent.click(screen.getByRole('tab', { name: 'Elaboração' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Editar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/edicao/faixaCobranca'));
  });

  it('view: no Histórico or Elaboração tab without rows; edit hidden for a deactivated group; a failed removal says so', async () => {
    signInAs(['sefaz_admin']);
    const desativado = { ...ELABORACAO, grupoFaixa: { ...ELABORACAO.grupoFaixa, desativado: true } };
    api(tarifacao({ historico: [], elaboracao: desativado }), { 'DELETE /api/v1/faixa-cobranca/tarifas/elaboracao/gt-elaboracao': jsonResponse(500, { error: 'erroInterno' }) });
    renderAt('faixa-cobranca-view');
    await screen.findByRole('table', { name: 'Tarifas vigentes' });
    expect(screen.queryByRole('tab', { name: 'Histórico' })).toBeNull();
    await userEvent.click(screen.getByRole('tab', { name: 'Elaboração' }));
    expect(screen.queryByRole('button', { name: 'Editar' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Remover' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Sim' }));
    expect(await screen.findByText('Não foi possível remover o Grupo Faixa em elaboração.')).toBeTruthy();
  });

  it('view: a new tariff start month, with cancel', async () => {
    signInAs(['sefaz_admin']);
    api(tarifacao());
    renderAt('faixa-cobranca-view');
    await userEvent.click(await screen.findByRole('button', { name: 'Nova Tarifa' }));
    expect(screen.getByLabelText('Início da nova tarifa')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Continuar' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByLabelText('Início da nova tarifa')).toBeNull();
  });

  it('form: band grid rules, required fields and the promotional band, then the create payload in integers', async () => {
    signInAs(['sefaz_admin']);
    const calls = api(tarifacao(), {
      'POST /api/v1/faixa-cobranca': jsonResponse(201, [true, 'Faixas de Cobrança e Tarifação cadastrados com êxito.']),
    });
    const router = renderAt('faixa-cobranca-form');
    expect(await screen.findByRole('heading', { name: 'Nova Faixa de Cobrança e Tarifação' })).toBeTruthy();
    // A copy of the current group.
    expect(((await screen.findByLabelText(/^Nome do Grupo Faixa/)) as HTMLInputElement).value).toBe('Faixas vigente');
    expect(cell('Consulta Faturamento NF-e', 2).value).toBe('0,750');
    expect(screen.getByText('A vigência atual (Tarifas vigente) termina em 11/2026; a nova vigência começa em 12/2026.')).toBeTruthy();

    // A third band: its minimum is the previous maximum + 1; the open last band got a maximum.
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar Faixa' }));
    const max2 = screen.getByLabelText('Quantidade máxima da Faixa 2') as HTMLInputElement;
    expect(max2.value).toBe('5002');
    await userEvent.clear(max2);
    await userEvent.type(max2, '20000');
    expect(screen.getByRole('row', { name: /Faixa 3 20\.001/ })).toBeTruthy();
    // A maximum not above its minimum: the message, and the maximum reset to minimum + 1.
    await userEvent.clear(max2);
    await userEvent.type(max2, '10');
    await userEvent.tab();
    expect((await screen.findAllByText('A faixa máxima deve ser maior que a faixa mínima.')).length).toBeGreaterThan(0);
    expect(max2.value).toBe('5002');
    expect(screen.getByRole('row', { name: /Faixa 3 5\.003/ })).toBeTruthy();
    await userEvent.clear(max2);
    await userEvent.type(max2, '20000');

    // Names required; the promotional band must be chosen.
    await userEvent.clear(screen.getByLabelText(/^Nome do Grupo Tarifa/));
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Campo obrigatório')).toBeTruthy();
    expect(await screen.findByText('Dados incorretos. Por gentileza, revise os dados enviados.')).toBeTruthy();
    expect(calls.of('POST', '/api/v1/faixa-cobranca')).toEqual([]);
    await userEvent.type(screen.getByLabelText(/^Nome do Grupo Tarifa/), 'Tarifas 2027');
    await pickOption(screen.getByLabelText(/^Faixa promocional/), 'Faixa 3');

    // Values: 3 decimals, empty is 0.
    await userEvent.type(cell('Consulta Fat-e por Chave de Acesso', 3), '0,0955');
    await userEvent.tab();
    expect(cell('Consulta Fat-e por Chave de Acesso', 3).getAttribute('aria-invalid')).toBe('true');
    await userEvent.clear(cell('Consulta Fat-e por Chave de Acesso', 3));
    await userEvent.type(cell('Consulta Fat-e por Chave de Acesso', 3), '0,09');
    await userEvent.tab();
    expect(cell('Consulta Fat-e por Chave de Acesso', 3).value).toBe('0,090');
    await userEvent.clear(screen.getByLabelText(/^Assinatura mínima/));
    await userEvent.type(screen.getByLabelText(/^Assinatura mínima/), '1.234,5');

    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Faixas de Cobrança e Tarifação cadastrados com êxito.')).toBeTruthy();
    expect(calls.of('POST', '/api/v1/faixa-cobranca')[0]!.body).toEqual({
      faixa: {
        nomeGrupoFaixa: 'Faixas vigente',
        faixaPromocional: 3,
        vigenciaInicial: '2026-12',
        vigenciaFinalFaixaAtual: '2026-11',
        faixas: [
          { qtdMinima: 1, qtdMaxima: 5000 },
          { qtdMinima: 5001, qtdMaxima: 20000 },
          { qtdMinima: 20001, qtdMaxima: null },
        ],
      },
      tarifa: {
        nomeGrupoTarifa: 'Tarifas 2027',
        assinaturaMinima: 123_450,
        tarifas: [
          { servId: 1, valores: [150, 120, 90] },
          { servId: 5, valores: [900, 750, 0] },
        ],
      },
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/detalhe/faixaCobranca'));
  });

  it("form: the server's refusal is shown ('Já existe uma tarifação em elaboração.')", async () => {
    signInAs(['sefaz_admin']);
    api(tarifacao(), { 'POST /api/v1/faixa-cobranca': jsonResponse(409, { error: 'tarifacaoEmElaboracao', message: 'Já existe uma tarifação em elaboração.' }) });
    renderAt('faixa-cobranca-form');
    await pickOption(await screen.findByLabelText(/^Faixa promocional/), 'Sem faixa promocional');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Já existe uma tarifação em elaboração.')).toBeTruthy();
  });

  it('edit: the draft, its start month, the last band removed, never the only one; the update payload', async () => {
    signInAs(['sefaz_admin']);
    const calls = api(tarifacao({ elaboracao: ELABORACAO, novoPermitido: false }), {
      'PUT /api/v1/faixa-cobranca': jsonResponse(200, [true, 'Faixas de Cobrança e Tarifação atualizadas com êxito.']),
    });
    renderAt('faixa-cobranca-edit');
    expect(await screen.findByRole('heading', { name: 'Editar Faixa de Cobrança e Tarifação' })).toBeTruthy();
    expect(await screen.findByText('A vigência atual (Tarifas vigente) termina em 12/2026; a nova vigência começa em 01/2027.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remover Faixa 1' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Remover Faixa 2' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remover Faixa 1' }));
    expect(await screen.findByText('Deve existir pelo menos uma faixa de cobrança.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Faixas de Cobrança e Tarifação atualizadas com êxito.')).toBeTruthy();
    expect(calls.of('PUT', '/api/v1/faixa-cobranca')[0]!.body).toMatchObject({
      idGrupoFaixa: 'gf-elaboracao',
      idGrupoTarifa: 'gt-elaboracao',
      revisao: 7,
      faixa: { vigenciaInicial: '2027-01', faixaPromocional: 1, faixas: [{ qtdMinima: 1, qtdMaxima: 1000 }] },
      tarifa: { assinaturaMinima: 75_000, tarifas: [{ servId: 1, valores: [140] }, { servId: 5, valores: [880] }] },
    });
  });

  it('edit: a draft on the current bands keeps them read-only', async () => {
    signInAs(['sefaz_admin']);
    const compartilhada = versao('ELABORACAO', 'elaboracao', '2027-01', null, [[1, 5000], [5001, null]], [[140, 110], [880, 730]], VIGENTE.grupoFaixa.id);
    api(tarifacao({ elaboracao: compartilhada, novoPermitido: false }));
    renderAt('faixa-cobranca-edit');
    expect(((await screen.findByLabelText('Quantidade máxima da Faixa 1')) as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Adicionar Faixa' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Remover Faixa/ })).toBeNull();
  });
});
