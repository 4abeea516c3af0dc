import { describe, expect, it } from 'vitest';
import { dataAaaammdd, escreverRetorno, lerRetorno, TAMANHO_REGISTRO } from './layout';

const BARRAS_1 = '85890000012345678901234567890123456789012345';
const BARRAS_2 = '85800000005000000000000000000000000000000001';

const arquivo = () =>
  escreverRetorno({
    convenio: '000123',
    banco: '001',
    nomeBanco: 'Banco do Brasil',
    dataGeracao: '2026-11-20',
    nsa: 42,
    pagamentos: [
      { dataPagamento: '2026-11-18', dataCredito: '2026-11-19', codigoBarras: BARRAS_1, valorRecebido: 1_234_56, tarifa: 150, autenticacao: 'AUT-0001-BB' },
      { dataPagamento: '2026-11-19', dataCredito: '2026-11-20', codigoBarras: BARRAS_2, valorRecebido: 500_00 },
    ],
  });

describe('the FEBRABAN arrecadação return file', () => {
  it('writes 150-position records, header A, details G and trailer Z with count and total', () => {
    const linhas = arquivo().split('\r\n').filter(Boolean);
    expect(linhas.map((l) => [l[0], l.length])).toEqual([
      ['A', TAMANHO_REGISTRO],
      ['G', TAMANHO_REGISTRO],
      ['G', TAMANHO_REGISTRO],
      ['Z', TAMANHO_REGISTRO],
    ]);
    // G: barcode at 38-81, amount at 82-93; Z: 4 records, R$ 1.734,56.
    expect(linhas[1]!.slice(37, 81)).toBe(BARRAS_1);
    expect(linhas[1]!.slice(81, 93)).toBe('000000123456');
    expect(linhas[3]!.slice(1, 7)).toBe('000004');
    expect(linhas[3]!.slice(7, 24)).toBe('00000000000173456');
  });

  it('reads a file back field by field', () => {
    const r = lerRetorno(arquivo());
    expect(r.problemas).toEqual([]);
    expect(r.cabecalho).toEqual({ convenio: '000123', banco: '001', nomeBanco: 'BANCO DO BRASIL', dataGeracao: '2026-11-20', nsa: 42, versao: '05' });
    expect(r.pagamentos).toEqual([
      { linha: 2, nsr: 2, dataPagamento: '2026-11-18', dataCredito: '2026-11-19', codigoBarras: BARRAS_1, valorRecebido: 123_456, tarifa: 150, autenticacao: 'AUT-0001-BB' },
      { linha: 3, nsr: 3, dataPagamento: '2026-11-19', dataCredito: '2026-11-20', codigoBarras: BARRAS_2, valorRecebido: 50_000, tarifa: 0, autenticacao: expect.stringMatching(/^AUT[0-9A-F]{20}$/) },
    ]);
    // The same payment written into another file carries the same authentication (a bank's is the payment's own).
    const outro = lerRetorno(arquivo().replace('000042', '000043'));
    expect(outro.pagamentos[1]!.autenticacao).toBe(r.pagamentos[1]!.autenticacao);
    expect(r.trailer).toEqual({ totalRegistros: 4, valorTotal: 173_456 });
  });

  it('accepts LF line ends and a BOM', () => {
    expect(lerRetorno('\uFEFF' + arquivo().replaceAll('\r\n', '\n')).problemas).toEqual([]);
  });

  it("refuses a trailer whose total or count does not match the file", () => {
    const linhas = arquivo().split('\r\n').filter(Boolean);
    const totalAlterado = [...linhas.slice(0, 3), linhas[3]!.slice(0, 7) + '00000000000173457' + linhas[3]!.slice(24)].join('\n');
    expect(lerRetorno(totalAlterado).problemas).toEqual([{ linha: 4, motivo: 'O trailer informa o total de R$ 1.734,57; os registros G somam R$ 1.734,56.' }]);
    const semUmG = [linhas[0], linhas[1], linhas[3]].join('\n');
    expect(lerRetorno(semUmG).problemas).toEqual([{ linha: 3, motivo: 'O trailer informa 4 registros; o arquivo tem 3.' }]);
  });

  it('reports unreadable lines, wrong sizes, foreign records and a missing header or trailer, never dropping them', () => {
    const linhas = arquivo().split('\r\n').filter(Boolean);
    const ruim = linhas[1]!.slice(0, 21) + '20261332' + linhas[1]!.slice(29);
    const r = lerRetorno([linhas[0], ruim, 'G curto', 'B'.padEnd(150, ' '), linhas[2]].join('\n'));
    expect(r.problemas).toEqual([
      { linha: 2, motivo: 'Registro G ilegível: data de pagamento inválida.' },
      { linha: 3, motivo: 'O registro tem 7 posições; o layout exige 150.' },
      { linha: 4, motivo: "Registro do tipo 'B' não é tratado por este serviço (somente A, G e Z)." },
      { linha: 0, motivo: 'O arquivo não termina com o trailer (Z).' },
    ]);
    expect(lerRetorno('').problemas).toEqual([{ linha: 0, motivo: 'O arquivo está vazio.' }]);
    expect(lerRetorno(linhas.slice(1).join('\n')).problemas).toContainEqual({ linha: 0, motivo: 'O arquivo não começa com o cabeçalho (A).' });
  });

  it('refuses a remessa header (the file sent to the bank, not its return)', () => {
    const linhas = arquivo().split('\r\n').filter(Boolean);
    const remessa = ['A1' + linhas[0]!.slice(2), ...linhas.slice(1)].join('\n');
    expect(lerRetorno(remessa).problemas).toEqual([{ linha: 1, motivo: 'O cabeçalho não é de um arquivo de retorno (código de remessa diferente de 2).' }]);
  });

  it('reads only real days', () => {
    expect(dataAaaammdd('20260229')).toBeNull();
    expect(dataAaaammdd('20280229')).toBe('2028-02-29');
    expect(dataAaaammdd('2026111')).toBeNull();
  });
});
