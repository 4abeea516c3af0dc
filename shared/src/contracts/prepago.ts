import * as z from 'zod';
import type { Role } from '../access/roles';
import { isValidCnpj, normalizeCnpj } from '../domain/cnpj';
import { isBusinessMonth } from '../domain/dates';
import { QTD_MAXIMA_RESERVA, QTD_MINIMA_RESERVA } from '../domain/prepago';
import { message } from '../messages';
import { cursorPageOf, cursorQuery, isoDateTime, MES_META, opcionalVazio, pageOf, pageQuery } from './common';
import { defineContract } from './define';

/**
 * Prepaid requests for bookkeepers (escrituradores; issue 17; spec 3 sections 2.8–2.10, 3.11, 3.12,
 * 5.3, 6, 7.6, 8; docs/prepago.md): the reservation (its value priced by the tariff in force, paid by a
 * DAE), the reservations' DAEs, and the request account (contracted value, deadline, balance and the
 * month's statement). Admin and cliente_imf; a client user works only on its own company (another
 * CNPJ: 403 clienteNaoPermitido), the admin on the bookkeeper it picks. Money in centavos, unit values
 * in thousandths of a real.
 */

export const PREPAGO: readonly Role[] = ['sefaz_admin', 'cliente_imf'];

/** The bookkeeper's CNPJ, with the form's messages (spec 3, 8). */
const cnpjEscriturador = z
  .string({ error: message('reservaCnpjObrigatorio') })
  .transform(normalizeCnpj)
  .pipe(z.string().min(1, { error: message('reservaCnpjObrigatorio') }).refine(isValidCnpj, { error: message('cnpjInvalido') }))
  .meta({ title: 'CNPJ do escriturador', example: '12345678000195' });

const emailContato = z
  .string({ error: message('reservaEmailObrigatorio') })
  .trim()
  .toLowerCase()
  .pipe(z.string().min(1, { error: message('reservaEmailObrigatorio') }).pipe(z.email({ error: message('reservaEmailInvalido') }).max(100, { error: message('emailGrandeDemais') })))
  .meta({ title: 'e-mail de contato' });

/** A quantity: digits only (spec 3, 5.3 'Apenas números são permitidos'). */
const quantidade = (title: string) =>
  z
    .union([z.string(), z.number()], { error: message('campoObrigatorio', { field: title }) })
    .transform((v, ctx) => {
      const text = String(v).trim();
      if (!/^\d{1,12}$/.test(text)) {
        ctx.addIssue({ code: 'custom', message: message('reservaApenasNumeros') });
        return z.NEVER;
      }
      return Number(text);
    })
    .pipe(z.number().int().max(QTD_MAXIMA_RESERVA))
    .meta({ title });

export const reservaBody = z.object({
  cnpjEscriturador,
  emailContato,
  qtdEnvioFate: quantidade('Envio de Fat-e').pipe(z.number().min(QTD_MINIMA_RESERVA, { error: message('reservaValorMinimoCampo') })),
  qtdMonitoramentoDe: quantidade('Monitoramento de Documentos').default(0),
  qtdRegistroCessao: quantidade('Registro de Cessão').default(0),
});
export type ReservaBody = z.infer<typeof reservaBody>;

/** The reservation's DAE situations (spec 3, 4.4: open and paid are two of the codes). */
export const SITUACOES_DAE_PREPAGO = { A: 'Em aberto', P: 'Pago' } as const;
export type SituacaoDaePrepago = keyof typeof SITUACOES_DAE_PREPAGO;

/** A DAE item (spec 3, 3.12): the DAE and its reservation. */
export const daePrepagoSchema = z.object({
  dae: z.object({
    /** The reservation's id (its DAE is printed by it). */
    id: z.string(),
    /** Centavos. */
    valor: z.number().int(),
    situacao: z.enum(['A', 'P']),
    ano: z.number().int(),
    mes: z.number().int(),
    createdAt: isoDateTime,
    /** 'YYYY-MM-DD'. */
    dtVencimento: z.string(),
    numero: z.number().int(),
    linhaDigitavel: z.string(),
    pagoEm: z.string().nullable(),
  }),
  pagamentoAntecipado: z.object({
    razaoSocial: z.string(),
    cnpjEscriturador: z.string(),
    emailContato: z.string(),
    qtdEnvioFate: z.number().int(),
    qtdMonitoramentoDe: z.number().int(),
    qtdRegistroCessao: z.number().int(),
  }),
});
export type DaePrepago = z.infer<typeof daePrepagoSchema>;

export const escrituradorSchema = z.object({ id: z.string(), cnpj: z.string(), razaoSocial: z.string() });

export const listarEscrituradores = defineContract({
  id: 'prepago.escrituradores',
  context: 'prepago',
  method: 'GET',
  path: '/api/v1/pagamento-antecipado/escrituradores',
  summary: 'Os escrituradores (clientes IMF) em ordem de razão social; um usuário de cliente recebe apenas a sua empresa.',
  access: PREPAGO,
  response: z.array(escrituradorSchema),
  errors: [],
});

export const cadastrarReserva = defineContract({
  id: 'prepago.cadastrar',
  context: 'prepago',
  method: 'POST',
  path: '/api/v1/pagamento-antecipado',
  summary:
    'Cadastra a reserva de requisições de um escriturador (mínimo 50.000.000 no total e no envio de Fat-e). O valor sai da tarifação ' +
    'vigente (a faixa do total reservado) e vira um DAE; pago o DAE (retorno bancário), o valor é creditado na conta de requisições.',
  access: PREPAGO,
  body: reservaBody,
  response: z.object({ message: z.string(), dae: daePrepagoSchema }),
  status: 201,
  errors: ['reservaJaExiste', 'reservaQuantidadeMinima', 'reservaEscrituradorInvalido', 'reservaSemTarifa', 'clienteNaoPermitido'],
});

/** The value a reservation would cost now (the confirmation before cadastrarReserva shows it). */
export const cotarReserva = defineContract({
  id: 'prepago.cotar',
  context: 'prepago',
  method: 'GET',
  path: '/api/v1/pagamento-antecipado/cotacao',
  summary: 'O valor (centavos) que uma reserva com estas quantidades custaria pela tarifação vigente, sem cadastrá-la.',
  access: PREPAGO,
  query: z.object({
    qtdEnvioFate: quantidade('Envio de Fat-e').pipe(z.number().min(QTD_MINIMA_RESERVA, { error: message('reservaValorMinimoCampo') })),
    qtdMonitoramentoDe: quantidade('Monitoramento de Documentos').default(0),
    qtdRegistroCessao: quantidade('Registro de Cessão').default(0),
  }),
  response: z.object({ valor: z.number().int() }),
  errors: ['reservaQuantidadeMinima', 'reservaSemTarifa'],
});

const mes = z
  .string()
  .trim()
  .refine(isBusinessMonth, { error: message('campoInvalido', { field: 'mês' }) })
  .meta({ title: 'mês', ...MES_META });

export const listarDaesPrepagos = defineContract({
  id: 'prepago.daes',
  context: 'prepago',
  method: 'GET',
  path: '/api/v1/pagamento-antecipado/daes',
  summary:
    'Os DAEs das reservas, por escriturador (o administrador pode omitir: todos), meses de referência e situação; os mais recentes ' +
    'primeiro, uma página por vez (nextCursor → cursor).',
  access: PREPAGO,
  query: z.object({
    cnpj: opcionalVazio(cnpjEscriturador),
    dataInicio: opcionalVazio(mes),
    dataFim: opcionalVazio(mes),
    situacao: opcionalVazio(z.enum(['A', 'P'])),
    ...cursorQuery(25),
  }),
  response: cursorPageOf(daePrepagoSchema),
  errors: ['clienteNaoPermitido', 'dataInicioMaiorDataFim', 'cursorInvalido'],
});

export const imprimirDaePrepago = defineContract({
  id: 'prepago.imprimirDae',
  context: 'prepago',
  method: 'POST',
  path: '/api/v1/pagamento-antecipado/daes/{id}/impressao',
  summary:
    'O PDF do DAE de uma reserva (URL temporária). Um DAE em aberto e vencido é reemitido com novo vencimento (o anterior, se pago, ainda é reconhecido).',
  access: PREPAGO,
  params: z.object({ id: z.string().trim().regex(/^PA-[A-Za-z0-9_-]{1,64}-\d{1,6}$/, { error: message('recursoNaoEncontrado') }) }),
  response: z.object({ urlDAE: z.string(), dtVencimento: z.string(), linhaDigitavel: z.string() }),
  errors: ['recursoNaoEncontrado', 'clienteNaoPermitido'],
});

/** The request account (spec 3, 3.12). */
export const contaSchema = z.object({
  cnpj: z.string(),
  razaoSocial: z.string(),
  /** AGUARDANDO_PAGAMENTO until the DAE is paid; VIGENTE after; ENCERRADA past the deadline. */
  situacao: z.enum(['SEM_RESERVA', 'AGUARDANDO_PAGAMENTO', 'VIGENTE', 'ENCERRADA']),
  /** Centavos; 0 before the payment. */
  valorContratado: z.number().int(),
  /** Centavos: the value of the reservation whose DAE awaits payment (AGUARDANDO_PAGAMENTO), else null. */
  valorReserva: z.number().int().nullable().default(null),
  /** 'YYYY-MM-DD', null before the payment. */
  prazoConsumo: z.string().nullable(),
  /** Centavos (rounded down from thousandths). */
  saldoAtual: z.number().int(),
  /** Unit values of the three services in thousandths (what each use debits). */
  valores: z.array(z.object({ idModuloServico: z.number().int(), descricao: z.string(), valorUnitario: z.number().int() })),
});

const cnpjConta = z.object({ cnpj: opcionalVazio(cnpjEscriturador) });

export const contaRequisicoes = defineContract({
  id: 'prepago.conta',
  context: 'prepago',
  method: 'GET',
  path: '/api/v1/pagamento-antecipado/conta',
  summary: 'O saldo da conta de requisições do escriturador: valor contratado, prazo de consumo e saldo atual.',
  access: PREPAGO,
  query: cnpjConta,
  response: contaSchema,
  errors: ['clienteNaoPermitido', 'prepagoEscrituradorObrigatorio', 'reservaEscrituradorInvalido'],
});

export const linhaExtratoSchema = z.object({
  cliente: z.string(),
  idModuloServico: z.number().int(),
  servico: z.string(),
  requisicoes: z.number().int(),
  /** The band's unit value, thousandths of a real. */
  valorFaixa: z.number().int(),
  /** Centavos: requisicoes × valorFaixa, half-up. */
  valorConsumido: z.number().int(),
});

export const extratoRequisicoes = defineContract({
  id: 'prepago.extrato',
  context: 'prepago',
  method: 'GET',
  path: '/api/v1/pagamento-antecipado/extrato',
  summary: 'O extrato do mês escolhido: por serviço, as requisições debitadas do saldo, o valor da faixa e o valor consumido.',
  access: PREPAGO,
  query: cnpjConta.extend({ mes, ...pageQuery }),
  response: pageOf(linhaExtratoSchema).extend({ totalConsumido: z.number().int() }),
  errors: ['clienteNaoPermitido', 'prepagoEscrituradorObrigatorio', 'reservaEscrituradorInvalido', 'extratoMesInvalido'],
});
