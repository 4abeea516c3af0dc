import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { entradasDoZip, zipDe } from './detalhamento';

const cliente = { razaoSocial: 'CLIENTE X', cnpj: '12345678000195' };
const q = (idModuloServico: number, servico: string, uf: string, chave: string) => ({ idModuloServico, createdAt: '2026-10-05T15:00:00.000Z', servico, uf, chave, requestId: 'r' });

describe('the detail ZIP', () => {
  it('has one CSV per service, in id order, with the consumption report of that service', () => {
    const entradas = entradasDoZip(cliente, '2026-10', [q(9, 'Envio de Fat-e', 'MA', 'a'), q(1, 'Consulta Fat-e por Chave de Acesso', 'BA', '+b'), q(9, 'Envio de Fat-e', 'BA', 'c')]);
    expect(entradas.map((e) => [e.nome, e.requisicoes])).toEqual([
      ['01-Consulta_Fat-e_por_Chave_de_Acesso.csv', 1],
      ['09-Envio_de_Fat-e.csv', 2],
    ]);
    expect(entradas[0]!.conteudo).toContain("05/10/2026 12:00:00;Consulta Fat-e por Chave de Acesso;BA;'+b;r\r\n");
    const zip = unzipSync(zipDe(entradas));
    expect(Object.keys(zip)).toEqual(['01-Consulta_Fat-e_por_Chave_de_Acesso.csv', '09-Envio_de_Fat-e.csv']);
    expect(Buffer.from(zip['09-Envio_de_Fat-e.csv']!).toString('utf8')).toBe(entradas[1]!.conteudo);
  });

  it('a month without requests gives one report of zero requests', () => {
    const entradas = entradasDoZip(cliente, '2026-10', []);
    expect(entradas.map((e) => e.nome)).toEqual(['detalhamento.csv']);
    expect(entradas[0]!.conteudo).toContain('Total;;0');
  });
});
