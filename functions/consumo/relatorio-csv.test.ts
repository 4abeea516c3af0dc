import { describe, expect, it } from 'vitest';
import { cabecalhoDoRelatorio, celulaSegura, chaveDoTotal, csv, linhaDaRequisicao, linhasDoRelatorio, pedacoCsv, rodapeDoRelatorio } from './relatorio-csv';

describe('the consumption report CSV', () => {
  it('escapes every cell a spreadsheet would run as a formula, and only those', () => {
    for (const perigosa of ['=1+1', '+SOMA(A1)', '-2+3', '@cmd', '\tx', '\rx']) expect(celulaSegura(perigosa)).toBe(`'${perigosa}`);
    for (const inofensiva of ['abc', '35260611222333000181', 'a=b', '']) expect(celulaSegura(inofensiva)).toBe(inofensiva);
    expect(celulaSegura(-5)).toBe(-5);
  });

  it('is ; separated UTF-8 with a BOM and CRLF, quoting what needs quotes', () => {
    const text = csv([
      ['a', 'b;c', 'd"e'],
      ['=HYPERLINK("x")', 'ção', 3],
    ]);
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text.slice(1)).toBe('a;"b;c";"d""e"\r\n"\'=HYPERLINK(""x"")";ção;3');
  });

  it('lists each request in Bahia time, then the totals by service and UF and the total', () => {
    const linhas = linhasDoRelatorio({
      cliente: { razaoSocial: 'Banco X', cnpj: '11222333000181' },
      mes: '2026-11',
      requisicoes: [
        { createdAt: '2026-11-01T02:30:00.000Z', servico: 'Consulta Fat-e por Chave de Acesso', uf: 'BA', chave: 'k1', requestId: 'r1' },
        { createdAt: '2026-11-02T12:00:05.000Z', servico: 'Consulta Fat-e por Chave de Acesso', uf: 'BA', chave: 'k2', requestId: 'r2' },
        { createdAt: '2026-11-03T12:00:00.000Z', servico: 'Consulta Faturamento NF-e', uf: 'SP', chave: 'k3', requestId: 'r3' },
      ],
    });
    expect(linhas).toEqual([
      ['Relatório de consumo'],
      ['Cliente', 'Banco X'],
      ['CNPJ', '11.222.333/0001-81'],
      ['Mês', '11/2026'],
      [],
      ['Data/Hora', 'Serviço', 'UF', 'Chave', 'Requisição'],
      ['31/10/2026 23:30:00', 'Consulta Fat-e por Chave de Acesso', 'BA', 'k1', 'r1'],
      ['02/11/2026 09:00:05', 'Consulta Fat-e por Chave de Acesso', 'BA', 'k2', 'r2'],
      ['03/11/2026 09:00:00', 'Consulta Faturamento NF-e', 'SP', 'k3', 'r3'],
      [],
      ['Serviço', 'UF', 'Requisições'],
      ['Consulta Fat-e por Chave de Acesso', 'BA', 2],
      ['Consulta Faturamento NF-e', 'SP', 1],
      ['Total', '', 3],
    ]);
  });

  it('written in pieces (heading, pages of lines, totals) it is exactly the CSV of all its lines', () => {
    const cliente = { razaoSocial: 'Banco X', cnpj: '11222333000181' };
    const requisicoes = Array.from({ length: 7 }, (_, i) => ({
      createdAt: `2026-11-0${i + 1}T12:00:00.000Z`,
      servico: i % 2 ? 'Consulta Faturamento NF-e' : 'Consulta Fat-e por Chave de Acesso',
      uf: i % 3 ? 'BA' : 'SP',
      chave: i === 3 ? '=perigo' : `k${i}`,
      requestId: `r${i};x`,
    }));
    const totais = new Map<string, number>();
    for (const q of requisicoes) totais.set(chaveDoTotal(q.servico, q.uf), (totais.get(chaveDoTotal(q.servico, q.uf)) ?? 0) + 1);
    const pedacos = [
      pedacoCsv(cabecalhoDoRelatorio(cliente, '2026-11'), true),
      pedacoCsv(requisicoes.slice(0, 3).map(linhaDaRequisicao), false),
      pedacoCsv([], false),
      pedacoCsv(requisicoes.slice(3).map(linhaDaRequisicao), false),
      pedacoCsv(rodapeDoRelatorio(totais, requisicoes.length), false),
    ];
    expect(pedacos.join('')).toBe(csv(linhasDoRelatorio({ cliente, mes: '2026-11', requisicoes })));
  });
});
