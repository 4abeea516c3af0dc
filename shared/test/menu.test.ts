import { describe, expect, it } from 'vitest';
import {
  MENU,
  ROLES,
  ROUTE_ACCESS,
  ROUTE_NAMES,
  canAccess,
  menuFor,
  routeAllows,
  routeForPath,
  routePath,
  type Role,
  type VisibleMenuGroup,
} from '../src/access';

const labels = (groups: VisibleMenuGroup[]) => groups.map((g) => g.label);
const itemLabels = (groups: VisibleMenuGroup[], group: string) =>
  groups.find((g) => g.label === group)?.items.map((i) => i.label) ?? [];

describe('ROUTE_ACCESS', () => {
  it('covers every path of the product path list for authenticated routes', () => {
    // The product's path list of the authenticated area (under /app), in its order.
    const listedPaths = [
      'not-authorized', 'user', 'user/7', 'cliente', 'cliente/7', 'cliente/edit/7',
      'consulta/consumoCliente', 'consulta/consumoUF', 'consulta/consumoErroUF',
      'consulta/pagamentoServico', 'consulta/pagamentoServico/detalhe/3/BA',
      'consulta/emissorConsentimento', 'consulta/emissorConsentimento/detalhamento',
      'consulta/emissorConsentimentoTransporte', 'consulta/servicos',
      'consulta/instituicaoFinanceira', 'instituicaoFinanceira',
      'consulta/faixaCobranca', 'cadastro/faixaCobranca', 'edicao/faixaCobranca', 'detalhe/faixaCobranca',
      'consulta/beneficiadoRateio', 'edicao/beneficiadoRateio', 'bancos/beneficiadoRateio', 'cadastro/beneficiadoRateio',
      'processamento/consultarProcessamento', 'processamento/consultarProcEventoFinanceiro',
      'processamento/loteProcessamento', 'fatura/consultarFatura', 'fatura/detalheFatura',
      'consulta/fate', 'consulta/qtd-fate-transportadora', 'cliente-degustacao', 'documentos-erro',
      'servico/consulta-fate', 'servico/consulta-fate-chave-composta', 'servico/recebivel-avaliacao',
      'servico/consulta-faturamento-nfce', 'servico/consulta-faturamento-nfe',
      'autorizacao-inf-cliente-list', 'autorizacao-inf-cliente-form',
      'monitoramento-webhook', 'monitoramento-consumo-cliente',
      'pagamentoAntecipado/cadastro-pagamento-antecipado', 'pagamentoAntecipado/imprimir-dae',
      'pagamentoAntecipado/conta-corrente-requisicoes', 'profile', '', 'emissor/termo-aceitacao',
    ];
    const unmatched = listedPaths.filter((p) => routeForPath(`/app/${p}`) === undefined);
    expect(unmatched).toEqual([]);
    // and nothing in the table is outside the list
    // Our own pages beyond the product's list (issue 14: the billing run's and the bank return's screens).
    // Issue 16: the monitored keys' screen.
    const ourPaths = ['fatura/faturamentoMensal', 'fatura/retornoBancario', 'monitoramento-documentos'];
    const matched = new Set([...listedPaths, ...ourPaths].map((p) => routeForPath(`/app/${p}`)));
    expect(ROUTE_NAMES.filter((n) => !matched.has(n))).toEqual([]);
  });

  it('has unique paths', () => {
    const paths = ROUTE_NAMES.map((n) => ROUTE_ACCESS[n].path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('follows the route-level access table', () => {
    expect(ROUTE_ACCESS['user-list'].roles).toEqual(['sefaz_admin']);
    expect(ROUTE_ACCESS['cliente-list'].roles).toEqual(['sefaz_admin', 'sefaz_gestor']);
    expect(ROUTE_ACCESS['dados-cliente-edit'].roles).toEqual(['cliente']);
    expect(ROUTE_ACCESS['servico-recebivel-avaliacao'].roles).toEqual(['avaliacao', 'cliente_web']);
    expect(ROUTE_ACCESS['emissor-termo'].roles).toEqual(['emissor']);
    expect(ROUTE_ACCESS.dashboard.roles).toBe('authenticated');
    expect(ROUTE_ACCESS.profile.roles).toBe('authenticated');
  });
});

describe('routeAllows / canAccess', () => {
  it('refuses everything to nobody signed in', () => {
    expect(routeAllows('dashboard', null)).toBe(false);
    expect(canAccess('/app', undefined)).toBe(false);
  });

  it('lets any signed-in user open the dashboard, profile and not-authorized', () => {
    for (const role of ROLES) {
      expect(canAccess('/app', [role])).toBe(true);
      expect(canAccess('/app/profile', [role])).toBe(true);
      expect(canAccess('/app/not-authorized', [role])).toBe(true);
    }
    // A user without roles is still signed in.
    expect(canAccess('/app/profile', [])).toBe(true);
  });

  it('matches parameters, relative paths, query strings and trailing slashes', () => {
    expect(canAccess('/app/user/42', ['sefaz_admin'])).toBe(true);
    expect(canAccess('user/42', ['sefaz_admin'])).toBe(true);
    expect(canAccess('/app/user/42/', ['sefaz_admin'])).toBe(true);
    expect(canAccess('/app/user?nome=ana', ['sefaz_admin'])).toBe(true);
    expect(canAccess('/app/user/42', ['sefaz_gestor'])).toBe(false);
    expect(canAccess('/app/cliente/edit/9', ['cliente'])).toBe(true);
    expect(canAccess('/app/cliente/9', ['cliente'])).toBe(false);
  });

  it('refuses unknown paths and paths outside /app', () => {
    expect(canAccess('/app/nao-existe', ['sefaz_admin'])).toBe(false);
    expect(canAccess('/user', ['sefaz_admin'])).toBe(false);
    expect(canAccess('/app/user/1/2', ['sefaz_admin'])).toBe(false);
  });

  it('grants with any one of several roles', () => {
    expect(canAccess('/app/consulta/consumoCliente', ['avaliacao', 'cliente'])).toBe(true);
    expect(canAccess('/app/pagamentoAntecipado/imprimir-dae', ['cliente_imf'])).toBe(true);
    expect(canAccess('/app/pagamentoAntecipado/imprimir-dae', ['sefaz_gestor'])).toBe(false);
  });
});

describe('routePath', () => {
  it('builds URLs under /app', () => {
    expect(routePath('dashboard')).toBe('/app');
    expect(routePath('user-form', { id: 'new' })).toBe('/app/user/new');
    expect(routePath('consulta-pagamento-servico-detalhe', { idConsumo: 5, ufConsumo: 'BA' })).toBe(
      '/app/consulta/pagamentoServico/detalhe/5/BA',
    );
  });

  it('throws on a missing parameter', () => {
    expect(() => routePath('user-form')).toThrow(/id/);
  });
});

describe('MENU', () => {
  it('never offers an item to a role its route refuses, nor outside its group', () => {
    for (const group of MENU) {
      for (const entry of group.items) {
        for (const role of entry.roles) {
          expect(routeAllows(entry.route, [role]), `${entry.label} / ${role}`).toBe(true);
        }
        expect(entry.roles.some((r) => group.roles.includes(r)), entry.label).toBe(true);
        expect(entry.icon).toMatch(/^pi pi-[a-z-]+$/);
      }
    }
  });

  it('has the product menu groups in order', () => {
    expect(MENU.map((g) => g.label)).toEqual([
      'Meus Dados', 'Administração', 'Controle de Carga', 'Monitoramento', 'Pagamentos antecipados',
      'Consulta', 'Consentimentos', 'Gestão', 'Serviço',
    ]);
  });
});

describe('menuFor', () => {
  it('gives sefaz_admin every group but the own-client one', () => {
    const menu = menuFor(['sefaz_admin']);
    expect(labels(menu)).toEqual([
      'Administração', 'Controle de Carga', 'Monitoramento', 'Pagamentos antecipados', 'Consulta',
      'Consentimentos', 'Gestão', 'Serviço',
    ]);
    expect(itemLabels(menu, 'Administração')).toEqual([
      'Clientes', 'Usuários', 'Faixas de Cobrança', 'Rateio', 'Instituições Financeiras',
      'Gestão de Serviços', 'Clientes em Degustação',
    ]);
    expect(itemLabels(menu, 'Monitoramento')).toContain('Processamento de Eventos Financeiros');
    // the receivable look-up is for avaliacao and cliente_web only
    expect(itemLabels(menu, 'Serviço')).not.toContain('Recebível em Avaliação');
    const faixas = menu[0]!.items.find((i) => i.label === 'Faixas de Cobrança');
    expect(faixas?.href).toBe('/app/consulta/faixaCobranca');
  });

  it('gives sefaz_gestor the client list and the shared screens, not the admin-only ones', () => {
    const menu = menuFor(['sefaz_gestor']);
    expect(labels(menu)).toEqual(['Administração', 'Controle de Carga', 'Consulta']);
    // The user pages are for sefaz_admin only, so the user list is not offered to a manager.
    expect(itemLabels(menu, 'Administração')).toEqual(['Clientes']);
    expect(itemLabels(menu, 'Controle de Carga')).toEqual(['Importação de Lote', 'Documentos com Erro']);
    expect(itemLabels(menu, 'Consulta')).toEqual(['Consumo por UF', 'Fat-e não Encontradas por UF', 'Pagamento de Serviços']);
    const all = menu.flatMap((g) => g.items.map((i) => i.label));
    expect(all).not.toContain('Gestão de Serviços');
    expect(all).not.toContain('Faixas de Cobrança');
  });

  it('gives cliente_imf the prepaid payments only', () => {
    const menu = menuFor(['cliente_imf']);
    expect(labels(menu)).toEqual(['Pagamentos antecipados']);
    expect(itemLabels(menu, 'Pagamentos antecipados')).toEqual([
      'Cadastro de Pagamento Antecipado', 'Imprimir DAE', 'Conta Corrente de Requisições',
    ]);
  });

  it('gives an issuer (emissor) no group', () => {
    expect(menuFor(['emissor'])).toEqual([]);
  });

  it('gives nobody nothing', () => {
    expect(menuFor(null)).toEqual([]);
    expect(menuFor([])).toEqual([]);
  });

  it('links the own client data of a cliente user, when the client id is known', () => {
    const menu = menuFor(['cliente'], { id: 'c-1' });
    expect(labels(menu)).toEqual(['Meus Dados', 'Consulta', 'Consentimentos', 'Gestão']);
    expect(menu[0]!.items[0]!.href).toBe('/app/cliente/edit/c-1');
    expect(itemLabels(menu, 'Consulta')).toEqual(['Consumo por Cliente', 'Pagamento de Serviços']);
    // without the id the item (and so the group) is left out instead of a broken link
    expect(labels(menuFor(['cliente']))).not.toContain('Meus Dados');
  });

  it('gives cliente_monitoramento the monitoring screens but not the financial events', () => {
    const menu = menuFor(['cliente_monitoramento']);
    expect(labels(menu)).toEqual(['Monitoramento']);
    expect(itemLabels(menu, 'Monitoramento')).toEqual([
      'Processamento de Documentos', 'Monitoramento de Webhook', 'Monitoramento de Documentos', 'Monitoramento por Cliente',
    ]);
  });

  it('gives avaliacao and cliente_web consents and services', () => {
    for (const role of ['avaliacao', 'cliente_web'] as Role[]) {
      const menu = menuFor([role]);
      expect(labels(menu)).toEqual(['Consentimentos', 'Serviço']);
      expect(itemLabels(menu, 'Serviço')).toContain('Recebível em Avaliação');
    }
  });

  it('merges the menus of several roles without duplicates', () => {
    const menu = menuFor(['sefaz_gestor', 'cliente_imf']);
    expect(labels(menu)).toEqual(['Administração', 'Controle de Carga', 'Pagamentos antecipados', 'Consulta']);
    const hrefs = menu.flatMap((g) => g.items.map((i) => i.href));
    expect(new Set(hrefs).size).toBe(hrefs.length);
  });
});
