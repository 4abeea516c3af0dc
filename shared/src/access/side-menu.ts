import { ROUTE_ACCESS, routePath, type RouteName } from './menu';
import type { Role } from './roles';

/**
 * The portal's side menu, as data: groups and items in the product's order. An item's roles are its
 * route's (menu.ts ROUTE_ACCESS), never broader, so where a group's roles are broader than a route's
 * the item follows the route.
 */

export interface MenuItem {
  /** pt-BR label shown in the side menu. */
  readonly label: string;
  /** primeicons class, e.g. `pi pi-users`. */
  readonly icon: string;
  readonly route: RouteName;
  /** Roles that see the item: the roles of its route in ROUTE_ACCESS (never broader). */
  readonly roles: readonly Role[];
}

export interface MenuGroup {
  readonly label: string;
  readonly icon: string;
  /** The roles the product gives the whole group; an item shows only to roles in both lists. */
  readonly roles: readonly Role[];
  readonly items: readonly MenuItem[];
}

function item(label: string, icon: string, route: RouteName): MenuItem {
  const roles = ROUTE_ACCESS[route].roles;
  if (roles === 'authenticated') throw new Error(`menu item ${route} needs explicit roles`);
  return { label, icon: `pi ${icon}`, route, roles };
}

/** The portal's side menu, groups and items in the product's order. */
export const MENU: readonly MenuGroup[] = [
  {
    label: 'Meus Dados',
    icon: 'pi pi-id-card',
    roles: ['cliente'],
    items: [item('Dados do Cliente', 'pi-building', 'dados-cliente-edit')],
  },
  {
    label: 'Administração',
    icon: 'pi pi-cog',
    roles: ['sefaz_admin', 'sefaz_gestor'],
    items: [
      item('Clientes', 'pi-building', 'cliente-list'),
      item('Usuários', 'pi-users', 'user-list'),
      item('Faixas de Cobrança', 'pi-sliders-h', 'faixa-cobranca'),
      item('Rateio', 'pi-percentage', 'beneficiado-rateio'),
      item('Instituições Financeiras', 'pi-building-columns', 'instituicao-financeira'),
      item('Gestão de Serviços', 'pi-list', 'consulta-servicos'),
      item('Clientes em Degustação', 'pi-gift', 'cliente-degustacao-list'),
    ],
  },
  {
    label: 'Controle de Carga',
    icon: 'pi pi-database',
    roles: ['sefaz_admin', 'sefaz_gestor'],
    items: [
      item('Importação de Lote', 'pi-upload', 'lote-processamento'),
      item('Documentos com Erro', 'pi-exclamation-triangle', 'documentos-erro'),
    ],
  },
  {
    label: 'Monitoramento',
    icon: 'pi pi-chart-line',
    roles: ['sefaz_admin', 'cliente_monitoramento'],
    items: [
      item('Processamento de Documentos', 'pi-sync', 'consultar-processamento'),
      item('Processamento de Eventos Financeiros', 'pi-bolt', 'consultar-processamento-evento'),
      item('Monitoramento de Webhook', 'pi-send', 'monitoramento-webhook'),
      item('Monitoramento de Documentos', 'pi-eye', 'monitoramento-documentos'),
      item('Monitoramento por Cliente', 'pi-chart-bar', 'monitoramento-consumo-cliente'),
    ],
  },
  {
    label: 'Pagamentos antecipados',
    icon: 'pi pi-wallet',
    roles: ['sefaz_admin', 'sefaz_gestor', 'cliente_imf'],
    items: [
      item('Cadastro de Pagamento Antecipado', 'pi-credit-card', 'cadastro-pagamento-antecipado'),
      item('Imprimir DAE', 'pi-print', 'imprimir-dae'),
      item('Conta Corrente de Requisições', 'pi-book', 'conta-corrente-requisicoes'),
    ],
  },
  {
    label: 'Consulta',
    icon: 'pi pi-search',
    roles: ['sefaz_admin', 'sefaz_gestor', 'cliente'],
    items: [
      item('Consumo por Cliente', 'pi-chart-pie', 'consumo-cliente'),
      item('Consumo por UF', 'pi-map', 'consumo-uf'),
      item('Fat-e não Encontradas por UF', 'pi-map-marker', 'consumo-erro-uf'),
      item('Pagamento de Serviços', 'pi-dollar', 'consulta-pagamento-servico'),
      item('Consulta Fat-e', 'pi-search', 'consulta-fate'),
      item('Quantidade de Fat-e por Transportadora', 'pi-truck', 'consulta-qtd-fate-transportadora'),
    ],
  },
  {
    label: 'Consentimentos',
    icon: 'pi pi-verified',
    roles: ['sefaz_admin', 'sefaz_gestor', 'cliente', 'cliente_web', 'avaliacao'],
    items: [
      item('Consentimentos de Emissores', 'pi-check-square', 'emissor-consentimento'),
      item('Consentimentos de Transporte', 'pi-truck', 'emissor-consentimento-transporte'),
    ],
  },
  {
    label: 'Gestão',
    icon: 'pi pi-briefcase',
    roles: ['sefaz_admin', 'cliente'],
    items: [
      item('Faturas', 'pi-file', 'consultar-fatura'),
      item('Faturamento Mensal', 'pi-calculator', 'faturamento-mensal'),
      item('Retorno Bancário', 'pi-inbox', 'retorno-bancario'),
      item('Autorização de ESF', 'pi-shield', 'autorizacao-inf-cliente-list'),
    ],
  },
  {
    label: 'Serviço',
    icon: 'pi pi-server',
    roles: ['sefaz_admin', 'cliente_web', 'avaliacao'],
    items: [
      item('Consulta Fat-e em Lote', 'pi-file-import', 'servico-consulta-fate'),
      item('Consulta Fat-e por Chave Composta', 'pi-key', 'servico-consulta-fate-chave-composta'),
      item('Recebível em Avaliação', 'pi-file-check', 'servico-recebivel-avaliacao'),
      item('Faturamento NFC-e', 'pi-shopping-cart', 'servico-consulta-faturamento-nfce'),
      item('Faturamento NF-e', 'pi-file-export', 'servico-consulta-faturamento-nfe'),
    ],
  },
];

export interface VisibleMenuItem extends MenuItem {
  /** Concrete URL, parameters filled (e.g. the own client's id for 'Meus Dados'). */
  readonly href: string;
}

export interface VisibleMenuGroup extends Omit<MenuGroup, 'items'> {
  readonly items: readonly VisibleMenuItem[];
}

/**
 * The groups and items the roles may see. `params` fills route parameters (`{ id: clienteId }` for
 * the own-client item); an item whose parameters are unknown is left out rather than linked broken.
 * A group with no visible item disappears.
 */
export function menuFor(
  roles: readonly Role[] | null | undefined,
  params: Record<string, string | number> = {},
): VisibleMenuGroup[] {
  if (!roles || roles.length === 0) return [];
  const sees = (allowed: readonly Role[]) => allowed.some((role) => roles.includes(role));
  const groups: VisibleMenuGroup[] = [];
  for (const group of MENU) {
    if (!sees(group.roles)) continue;
    const items: VisibleMenuItem[] = [];
    for (const entry of group.items) {
      if (!sees(entry.roles.filter((r) => group.roles.includes(r)))) continue;
      let href: string;
      try {
        href = routePath(entry.route, params);
      } catch {
        continue;
      }
      items.push({ ...entry, href });
    }
    if (items.length > 0) groups.push({ ...group, items });
  }
  return groups;
}
