import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ROUTE_ACCESS } from '@plac/shared/access';
import { cnpjCheckDigits } from '@plac/shared/domain';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { setNavigator } from '../../lib/navigation';
import { getSession } from '../../lib/session';
import { PageShell } from '../../test/shell';
import { jsonResponse, pickOption, signInAs, stubApi } from '../../test/instituicoes';
import EmissorConsentimentoDetalhePage from './EmissorConsentimentoDetalhePage';
import EmissorConsentimentoPage from './EmissorConsentimentoPage';
import EmissorConsentimentoTransportePage from './EmissorConsentimentoTransportePage';
import { erroNovaFilial } from './model';
import TermoAceitacaoPage from './TermoAceitacaoPage';

const CNPJ = '55667788000186';
const T = '2026-11-20T12:00:00.000Z';

function termo(overrides: Record<string, unknown> = {}) {
  return {
    razaoSocial: 'Indústria Emissora Ltda.',
    cnpj: CNPJ,
    cnpjBase: '55667788',
    estado: 'NAO_CADASTRADO',
    termoFaturaMensalTexto: 'A empresa Indústria Emissora Ltda. autoriza o faturamento mensal.',
    termoFaturaMensalValue: null,
    termoFaturaMensalDt: null,
    termoCompartNfeTexto: 'Compartilhamento das NF-e.',
    termoCompartNfeValue: null,
    filiais: [],
    inst_financeiras: [],
    versao: 0,
    ...overrides,
  };
}

const PAGES = {
  'emissor-termo': TermoAceitacaoPage,
  'emissor-consentimento': EmissorConsentimentoPage,
  'emissor-consentimento-transporte': EmissorConsentimentoTransportePage,
  'emissor-consentimento-detalhamento': EmissorConsentimentoDetalhePage,
} as const;

function renderAt(name: keyof typeof PAGES, state?: unknown) {
  const router = createMemoryRouter(
    [
      {
        path: '/app',
        element: <PageShell />,
        children: Object.entries(PAGES).map(([route, Page]) => ({ path: ROUTE_ACCESS[route as keyof typeof PAGES].path, element: <Page /> })),
      },
      { path: '/message', element: <h1>Mensagem</h1> },
      { path: '/emissor/login', element: <h1>Login do emissor</h1> },
    ],
    { initialEntries: [{ pathname: `/app/${ROUTE_ACCESS[name].path}`, state }] },
  );
  setNavigator((to, options) => void router.navigate(to, options));
  render(<RouterProvider router={router} />);
  return router;
}

function typeDate(label: string, text: string) {
  const input = screen.getByLabelText(label);
  fireEvent.input(input, { target: { value: text } });
  fireEvent.blur(input);
}

const signInIssuer = () => signInAs(['emissor'], { cnpj: CNPJ });

describe('the issuer’s consent wizard', { timeout: 30_000 }, () => {
  it('shows Next only after the consent is accepted; checks new branches; saves, logs out and shows the message page', async () => {
    signInIssuer();
    const api = stubApi({
      'GET /api/v1/emissor/termo-aceite-emissor': jsonResponse(200, termo()),
      'GET /api/v1/emissor/instituicao-financeira/top5': jsonResponse(200, [{ id: 'i-1', razaoSocial: 'Banco Alfa S.A.', cnpj: '33445566', uf: 'BA', situacao: 'ATIVA', createdAt: T, updatedAt: null, createdBy: null }]),
      'POST /api/v1/emissor/instituicao_financeira/create': jsonResponse(201, { id: 'i-novo', razaoSocial: 'Fomento Novo Ltda.', cnpj: '12345678', uf: 'SE', situacao: 'NOVO', createdAt: T, updatedAt: null, createdBy: CNPJ }),
      'POST /api/v1/emissor/termo-aceite-emissor': jsonResponse(200, { message: 'Consentimento registrado com sucesso.', consentimento: termo({ estado: 'AUTORIZADO', versao: 1 }) }),
      'POST /api/v1/logout': jsonResponse(200, { message: 'ok' }),
    });
    const router = renderAt('emissor-termo');
    expect(await screen.findByText('A empresa Indústria Emissora Ltda. autoriza o faturamento mensal.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Próximo/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remover Consentimento' })).toBeNull();
    await userEvent.click(screen.getByLabelText('Li e aceito os termos de consentimento'));
    await userEvent.click(screen.getByRole('button', { name: /Próximo/ }));

    // Step 2: the own branch, fixed (no delete); a new branch checked before it is added.
    const filiais = await screen.findByRole('table', { name: 'Filiais' });
    expect(within(filiais).getByText('55.667.788/0001-86')).toBeTruthy();
    expect(within(filiais).queryByRole('button', { name: /Remover filial/ })).toBeNull();
    await userEvent.type(screen.getByLabelText('E-mail da filial 55.667.788/0001-86'), 'matriz@emissora.local');
    await pickOption(screen.getByLabelText('UF da filial 55.667.788/0001-86'), 'BA');

    await userEvent.type(screen.getByLabelText('CNPJ'), '11222333000181');
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar Filial' }));
    expect(await screen.findByText('O Cnpj informado deve pertencer ao Cnpj Base.')).toBeTruthy();
    expect((screen.getByLabelText('CNPJ') as HTMLInputElement).value).toBe('55667788');
    await userEvent.clear(screen.getByLabelText('CNPJ'));
    await userEvent.type(screen.getByLabelText('CNPJ'), '55667788000191');
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar Filial' }));
    expect(await screen.findByText('O Cnpj informado é inválido.')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('CNPJ'));
    await userEvent.type(screen.getByLabelText('CNPJ'), '55.667.788/0001-86');
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar Filial' }));
    expect(await screen.findByText('Já foi informada a Filial com esse Cnpj.')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('CNPJ'));
    await userEvent.type(screen.getByLabelText('CNPJ'), '55667788000267');
    const nova = screen.getByRole('group', { name: 'Nova filial' });
    await userEvent.type(within(nova).getByLabelText('Razão Social'), 'Filial Sergipe');
    await userEvent.type(within(nova).getByLabelText('E-mail'), 'se@emissora.local');
    await pickOption(within(nova).getByLabelText('UF'), 'SE');
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar Filial' }));
    expect(await within(filiais).findByText('55.667.788/0002-67')).toBeTruthy();
    // A new branch can be removed; its monthly billing switched off.
    expect(within(filiais).getByRole('button', { name: 'Remover filial 55.667.788/0002-67' })).toBeTruthy();
    await userEvent.click(screen.getByLabelText('Fatura mensal da filial 55.667.788/0002-67'));
    await userEvent.click(screen.getByRole('button', { name: /Próximo/ }));

    // Step 3: the top 5 with fewer than 3 characters, and a NOVO institution created here.
    const busca = await screen.findByLabelText('Instituição Financeira');
    await userEvent.click(busca.parentElement!.querySelector('button')!);
    await userEvent.click(await screen.findByText('Banco Alfa S.A. - 33.445.566'));
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar Instituição' }));
    await userEvent.click(screen.getByRole('button', { name: 'Nova Instituição' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Razão Social'), 'Fomento Novo Ltda.');
    await userEvent.type(within(dialog).getByLabelText('CNPJ Base'), '12345678');
    await pickOption(within(dialog).getByLabelText('UF'), 'SE');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    const tabela = await screen.findByRole('table', { name: 'Instituições financeiras' });
    expect(await within(tabela).findByText('Fomento Novo Ltda.')).toBeTruthy();
    expect(within(tabela).getByRole('button', { name: 'Editar Fomento Novo Ltda.' })).toBeTruthy();
    expect(within(tabela).queryByRole('button', { name: 'Editar Banco Alfa S.A.' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/message'));
    expect(api.of('POST', '/api/v1/emissor/termo-aceite-emissor')[0]!.body).toEqual({
      termoFatMensal: true,
      termoCompartNfe: true,
      filiais: [
        { cnpj: CNPJ, razaoSocial: 'Indústria Emissora Ltda.', email: 'matriz@emissora.local', uf: 'BA', termoFatMensal: true },
        { cnpj: '55667788000267', razaoSocial: 'Filial Sergipe', email: 'se@emissora.local', uf: 'SE', termoFatMensal: false },
      ],
      inst_financeiras: [
        { id: 'i-1', termoFatMensal: true },
        { id: 'i-novo', termoFatMensal: true },
      ],
      versao: 0,
    });
    expect(getSession().user).toBeNull();
    expect(api.of('POST', '/api/v1/logout')).toHaveLength(1);
  });

  it('keeps persisted branches (no delete, UF fixed) and removes the consent after confirmation with both values false', async () => {
    signInIssuer();
    const persistida = { cnpj: CNPJ, razaoSocial: 'Matriz', email: 'm@e.local', uf: 'BA', termoFatMensal: true, termoCompartNfe: true, createdAt: T, updatedAt: T };
    const outra = { ...persistida, cnpj: '55667788000267', razaoSocial: 'Filial' };
    const api = stubApi({
      'GET /api/v1/emissor/termo-aceite-emissor': jsonResponse(200, termo({ estado: 'AUTORIZADO', termoFaturaMensalValue: true, termoCompartNfeValue: true, filiais: [persistida, outra], versao: 4 })),
      'POST /api/v1/emissor/desativar-termo-aceite-emissor': jsonResponse(200, { message: 'Consentimento removido com sucesso.' }),
      'POST /api/v1/logout': jsonResponse(200, { message: 'ok' }),
    });
    const router = renderAt('emissor-termo');
    await userEvent.click(await screen.findByLabelText('Li e aceito os termos de consentimento'));
    await userEvent.click(screen.getByRole('button', { name: /Próximo/ }));
    const filiais = await screen.findByRole('table', { name: 'Filiais' });
    expect(within(filiais).queryByRole('button', { name: /Remover filial/ })).toBeNull();
    expect(within(filiais).getByLabelText('UF da filial 55.667.788/0002-67').closest('.p-dropdown')!.classList.contains('p-disabled')).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: /Anterior/ }));

    await userEvent.click(screen.getByRole('button', { name: 'Remover Consentimento' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Não' }));
    expect(api.of('POST', '/api/v1/emissor/desativar-termo-aceite-emissor')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Remover Consentimento' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Sim' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/message'));
    expect(api.of('POST', '/api/v1/emissor/desativar-termo-aceite-emissor')[0]!.body).toEqual({ termoFatMensal: false, termoCompartNfe: false, versao: 4 });
    expect(getSession().user).toBeNull();
  });

  it('the branch rule of spec 1, 5 as a function', () => {
    const alfa = `12ABC34501DE${cnpjCheckDigits('12ABC34501DE')}`;
    expect(erroNovaFilial(alfa, '12ABC345', [])).toBeNull();
    expect(erroNovaFilial(`${alfa.slice(0, 13)}${(Number(alfa[13]) + 1) % 10}`, '12ABC345', [])).toBe('O Cnpj informado é inválido.');
    expect(erroNovaFilial('55667788000267', '55667788', [])).toBeNull();
  });
});

const LINHA = {
  id: '55667788',
  razaoSocial: 'Indústria Emissora Ltda.',
  cnpj: CNPJ,
  uf: 'BA',
  numeroContrato: '55667788/2',
  createdAt: T,
  situacao: 'Ativo',
  termoFaturaMensal: true,
  updatedAt: T,
  dataVigenciaFinal: null,
  tipoCliente: ['ESF'],
};
const OPCOES = { clientes: [{ cnpj: '11222333000181', razaoSocial: 'Cliente ESF', tipoCliente: 'ESF' }], emissores: [{ cnpj: '55667788', razaoSocial: 'Indústria Emissora Ltda.' }] };

describe('the consent lists', { timeout: 30_000 }, () => {
  it('needs a filter, an end date with a start date and a start not after the end; lists and opens the detail', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({
      'GET /api/v1/emissor-consentimento-opcoes': jsonResponse(200, OPCOES),
      'POST /api/v1/emissor-consentimento/filtro': jsonResponse(200, { items: [LINHA] }),
      'GET /api/v1/emissor-consentimento/55667788': jsonResponse(200, {
        emissor: LINHA,
        filiais: [{ cnpj: CNPJ, razaoSocial: 'Matriz', email: 'm@e.local', uf: 'BA', termoFatMensal: true, termoCompartNfe: true, createdAt: T, updatedAt: T, situacao: 'Ativo' }],
        instFinanceiras: [{ instituicaoFinanceira: { razaoSocial: 'Banco Alfa S.A.', cnpj: '33445566' }, termoFaturaMensal: false, situacao: 'Desativado', termoFaturaMensalDt: T, createdAt: T, updatedAt: T }],
      }),
    });
    const router = renderAt('emissor-consentimento');
    await userEvent.click(await screen.findByRole('button', { name: /Pesquisar/ }));
    expect(await screen.findByText('Informe ao menos um filtro para realizar a pesquisa.')).toBeTruthy();
    typeDate('Data Início', '10/11/2026');
    await userEvent.click(screen.getByRole('button', { name: /Pesquisar/ }));
    expect(await screen.findByText('A Data Fim é obrigatória quando a Data Início é informada.')).toBeTruthy();
    typeDate('Data Fim', '01/11/2026');
    await userEvent.click(screen.getByRole('button', { name: /Pesquisar/ }));
    expect(await screen.findByText('Data Início maior que Data Fim.')).toBeTruthy();
    expect(api.of('POST', '/api/v1/emissor-consentimento/filtro')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: /Limpar/ }));
    await pickOption(screen.getByLabelText('Status'), 'Ativo');
    await pickOption(screen.getByLabelText('Tipo de Cliente'), 'IMF');
    await userEvent.click(screen.getByRole('button', { name: /Pesquisar/ }));
    const table = await screen.findByRole('table', { name: 'Consentimentos de emissores' });
    expect(await within(table).findByText('Indústria Emissora Ltda.')).toBeTruthy();
    expect(api.of('POST', '/api/v1/emissor-consentimento/filtro')[0]!.body).toMatchObject({ situacao: 1, tipoCliente: 2, isAdminSefaz: true, isCliente: false, perPage: 25 });
    expect(api.of('POST', '/api/v1/emissor-consentimento/filtro')[0]!.body).not.toHaveProperty('cursor');

    await userEvent.click(within(table).getByRole('button', { name: 'Detalhar Indústria Emissora Ltda.' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/consulta/emissorConsentimento/detalhamento'));
    const inst = await screen.findByRole('table', { name: 'Instituições financeiras do emissor' });
    expect(await within(inst).findByText('Banco Alfa S.A.')).toBeTruthy();
    expect(within(inst).getByText('Desativado')).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Filiais do emissor' })).getByText('m@e.local')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Voltar para a lista de consentimentos' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/consulta/emissorConsentimento'));
  });

  it('pages by cursor (Próxima sends the nextCursor, Anterior goes back) and searches the companies by the name typed', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({
      'GET /api/v1/emissor-consentimento-opcoes': (call) =>
        jsonResponse(200, call.query.get('nome') ? { ...OPCOES, emissores: [{ cnpj: '99887766', razaoSocial: 'Zeta Emissora Ltda.' }] } : OPCOES),
      'POST /api/v1/emissor-consentimento/filtro': (call) =>
        jsonResponse(200, (call.body as { cursor?: string }).cursor === 'c2' ? { items: [{ ...LINHA, id: '99887766', razaoSocial: 'Segunda Página Ltda.' }] } : { items: [LINHA], nextCursor: 'c2' }),
    });
    renderAt('emissor-consentimento');
    await pickOption(await screen.findByLabelText('Status'), 'Ativo');
    await userEvent.click(screen.getByRole('button', { name: /Pesquisar/ }));
    const table = await screen.findByRole('table', { name: 'Consentimentos de emissores' });
    expect(await within(table).findByText('Indústria Emissora Ltda.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Próxima' }));
    expect(await within(table).findByText('Segunda Página Ltda.')).toBeTruthy();
    expect(screen.getByText('Página 2')).toBeTruthy();
    expect(api.of('POST', '/api/v1/emissor-consentimento/filtro').at(-1)!.body).toMatchObject({ situacao: 1, perPage: 25, cursor: 'c2' });
    await userEvent.click(screen.getByRole('button', { name: 'Anterior' }));
    expect(await within(table).findByText('Indústria Emissora Ltda.')).toBeTruthy();

    // The company select asks the server for the names beginning with the text typed.
    await userEvent.click(screen.getByLabelText('Empresa').closest('.p-dropdown')!);
    const busca = await waitFor(() => {
      const input = document.querySelector<HTMLInputElement>('.p-dropdown-filter');
      if (!input) throw new Error('no filter input');
      return input;
    });
    await userEvent.type(busca, 'Zeta');
    await waitFor(() => expect(api.of('GET', '/api/v1/emissor-consentimento-opcoes').some((c) => c.query.get('nome') === 'Zeta')).toBe(true));
    expect(await screen.findByRole('option', { name: 'Zeta Emissora Ltda. - 99.887.766', hidden: true })).toBeTruthy();
  });

  it('a client user has its client fixed and sent with the search', async () => {
    signInAs(['cliente_web'], { clienteId: 'c-1' });
    const api = stubApi({
      'GET /api/v1/emissor-consentimento-opcoes': jsonResponse(200, OPCOES),
      'POST /api/v1/emissor-consentimento/filtro': jsonResponse(200, { items: [] }),
    });
    renderAt('emissor-consentimento');
    await waitFor(() => expect(screen.getByLabelText('Cliente').closest('.p-dropdown')!.textContent).toContain('Cliente ESF'));
    await userEvent.click(screen.getByRole('button', { name: /Pesquisar/ }));
    await waitFor(() => expect(api.of('POST', '/api/v1/emissor-consentimento/filtro')).toHaveLength(1));
    expect(api.of('POST', '/api/v1/emissor-consentimento/filtro')[0]!.body).toMatchObject({ cnpjCliente: '11222333000181', isCliente: true });
  });

  it('the carrier list sends the type codes and shows the row codes as labels', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({
      'GET /api/v1/emissor-consentimento-opcoes': jsonResponse(200, OPCOES),
      'POST /api/v1/emissor-consentimento-transporte/filtro': jsonResponse(200, {
        items: [
          { sacadorRazaoSocial: 'Transportes A', sacadorCNPJ: '11222333000181', sacadorUF: 'PE', consentimentoNumeroContrato: 'CT-1', consentimentoDataAssinatura: T, consentimentoDataVigenciaFinal: null, situacao: 'Ativo', sacadorTipoTransportador: 0 },
          { sacadorRazaoSocial: 'Sacador B', sacadorCNPJ: '52998224725', sacadorUF: 'PE', consentimentoNumeroContrato: 'CT-2', consentimentoDataAssinatura: T, consentimentoDataVigenciaFinal: T, situacao: 'Desativado', sacadorTipoTransportador: 9 },
        ],
      }),
    });
    renderAt('emissor-consentimento-transporte');
    await userEvent.click(await screen.findByRole('button', { name: /Pesquisar/ }));
    expect(await screen.findByText('Informe ao menos um filtro para realizar a pesquisa.')).toBeTruthy();
    await pickOption(screen.getByLabelText('Tipo'), 'MERCADORIA');
    await pickOption(screen.getByLabelText('Status'), 'Desativado');
    await userEvent.click(screen.getByRole('button', { name: /Pesquisar/ }));
    const table = await screen.findByRole('table', { name: 'Consentimentos de transporte' });
    expect(await within(table).findByText('MERCADORIA')).toBeTruthy();
    expect(within(table).getByText('11.222.333/0001-81')).toBeTruthy();
    expect(api.of('POST', '/api/v1/emissor-consentimento-transporte/filtro')[0]!.body).toMatchObject({ transportador: -2, situacao: 2 });
  });
});
