import { randomInt, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@plac/shared/access';
import { cnpjCheckDigits, daysBetween, monthOf, nextMonth, toTransportDate } from '@plac/shared/domain';
import { cobrarConsulta } from '../../functions/consumo/cobranca';
import { call } from './http';
import { bearer, tokenFor } from './session';
import { gravarCliente } from './clientes-kit';

/**
 * The projected bill (issue 14 item 6) on the twin: a client's look-ups of this month charged through
 * the metering service, its projection read through the API and checked by hand against the demo
 * tariff version in force (infra/local/seed-tarifas.ts: band 1 is 1-5.000, service 1 at R$ 0,150,
 * minimum subscription R$ 750,00) and the day-by-day pace (docs/faturamento.md).
 */

const admin: Principal = { userId: 'proj-admin', name: 'Admin', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };

async function novoCliente(situacao: 'A' | 'E') {
  const first12 = `${String(randomInt(10_000_000, 99_999_999))}0001`;
  const cnpj = `${first12}${cnpjCheckDigits(first12)}`;
  const clienteId = `proj-${randomUUID()}`;
  const razaoSocial = `CLIENTE PROJECAO ${cnpj.slice(0, 6)}`;
  const now = new Date().toISOString();
  await gravarCliente({ clienteId, cnpj, razaoSocial, situacao, createdAt: now, updatedAt: now });
  return { clienteId, cnpj };
}

const c = {} as Record<'ativo' | 'outro', { clienteId: string; cnpj: string }>;
const usuario = (clienteId: string) => tokenFor({ userId: `proj-${clienteId}`, name: 'Cliente', tipo: 'C', roles: ['cliente'], clienteId });

beforeAll(async () => {
  c.ativo = await novoCliente('A');
  c.outro = await novoCliente('A');
  const agora = new Date();
  // 30 look-ups of service 1 from BA and 10 from SP, this month.
  await Promise.all(
    [...Array.from({ length: 30 }, () => 'BA'), ...Array.from({ length: 10 }, () => 'SP')].map((uf, i) =>
      cobrarConsulta({ clienteId: c.ativo.clienteId, servico: 1, uf, chave: `p${i}`, idempotencyKey: `proj-${i}`, agora }),
    ),
  );
}, 60_000);

describe('the projected bill', () => {
  it("gives a client user its month so far and at its end, priced by the billing rule", async () => {
    const hoje = toTransportDate(new Date());
    const mes = monthOf(new Date());
    const dia = daysBetween(`${mes}-01`, hoje) + 1;
    const diasNoMes = daysBetween(`${mes}-01`, `${nextMonth(mes)}-01`);
    const proj = (q: number) => (dia >= diasNoMes ? q : Math.round((q * diasNoMes) / dia));
    // R$ 0,150 a request, half-up to centavos.
    const valor = (q: number) => Math.round((q * 150) / 10);

    const { status, body } = await call('/api/v1/fatura-projetada', { headers: bearer(await usuario(c.ativo.clienteId)) });
    expect(status).toBe(200);
    expect(body).toMatchObject({ mes, dia, diasNoMes, tarifacao: true, faturavel: true, requisicoes: 40, cliente: { cnpj: c.ativo.cnpj, situacao: 'A' } });
    const p = body as { itens: unknown[]; servicos: unknown[]; atual: unknown; projetada: unknown; assinaturaMinima: number };
    expect(p.itens).toEqual([
      { idModuloServico: 1, descricao: 'Consulta Fat-e por Chave de Acesso', uf: 29, sgUf: 'BA', requisicoes: 30, valorUnitario: 150, valorConsumo: 450, requisicoesProjetadas: proj(30), valorUnitarioProjetado: 150, valorConsumoProjetado: valor(proj(30)) },
      { idModuloServico: 1, descricao: 'Consulta Fat-e por Chave de Acesso', uf: 35, sgUf: 'SP', requisicoes: 10, valorUnitario: 150, valorConsumo: 150, requisicoesProjetadas: proj(10), valorUnitarioProjetado: 150, valorConsumoProjetado: valor(proj(10)) },
    ]);
    expect(p.servicos).toEqual([
      expect.objectContaining({ idModuloServico: 1, requisicoes: 40, requisicoesProjetadas: proj(30) + proj(10), faixa: expect.objectContaining({ nome: 'Faixa 1', qtdMaxima: 5000, valorUnitario: 150 }), faltamParaProximaFaixa: 5001 - 40 }),
    ]);
    const projetado = valor(proj(30)) + valor(proj(10));
    expect(p.assinaturaMinima).toBe(750_00);
    expect(p.atual).toEqual({ valorServicos: 600, valorAssinatura: 750_00 - 600, valorTotal: 750_00 });
    expect(p.projetada).toEqual({ valorServicos: projetado, valorAssinatura: Math.max(0, 750_00 - projetado), valorTotal: Math.max(750_00, projetado) });
  });

  it("gives the administrator any client's, and asks it for the client", async () => {
    const token = await tokenFor(admin);
    const comCnpj = await call(`/api/v1/fatura-projetada?cnpj=${c.ativo.cnpj}`, { headers: bearer(token) });
    expect(comCnpj).toMatchObject({ status: 200, body: { requisicoes: 40 } });
    const semCnpj = await call('/api/v1/fatura-projetada', { headers: bearer(token) });
    expect(semCnpj).toMatchObject({ status: 400, body: { error: 'campoObrigatorio' } });
    const semUso = await call(`/api/v1/fatura-projetada?cnpj=${c.outro.cnpj}`, { headers: bearer(token) });
    expect(semUso).toMatchObject({ status: 200, body: { requisicoes: 0, itens: [], servicos: [], atual: { valorTotal: 750_00 }, projetada: { valorTotal: 750_00 } } });
    const first12 = `${String(randomInt(10_000_000, 99_999_999))}0009`;
    const desconhecido = await call(`/api/v1/fatura-projetada?cnpj=${first12}${cnpjCheckDigits(first12)}`, { headers: bearer(token) });
    expect(desconhecido.status).toBe(404);
  });

  it("refuses a client user another client's", async () => {
    const { status, body } = await call(`/api/v1/fatura-projetada?cnpj=${c.ativo.cnpj}`, { headers: bearer(await usuario(c.outro.clienteId)) });
    expect({ status, body }).toMatchObject({ status: 403, body: { error: 'clienteNaoPermitido' } });
  });
});
