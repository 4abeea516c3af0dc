import { describe, expect, it } from 'vitest';
import { campoLivre, codigoOrgao, daeDoCodigoBarras, IDENTIFICADOR_VALOR, SEGMENTO_ORGAOS_GOVERNAMENTAIS } from './config';
import {
  codigoBarrasDaLinha,
  codigoBarrasValido,
  formatarLinhaDigitavel,
  linhaDigitavel,
  montarCodigoBarras,
  modulo10,
  modulo11,
  valorDoCodigo,
} from './febraban';

/**
 * Published arrecadação barcodes (real slips, as printed), against our modulo 10 / modulo 11, barcode
 * and linha digitável. Sources:
 * - [A] mrmgomes/boleto-utils, test/test.js ("Boletos de 4 campos"): an energy bill (8 3 8…), value id 8 → mod 11.
 * - [B] mrmgomes/boleto-utils, test/test.js ("Converter código de barras para linha digitável"):
 *   a government-segment slip (8 5 8…), value id 8 → mod 11; two of its blocks have a remainder of 1 → DV 0.
 * - [C] mrmgomes/boleto-utils, test/test.js ("Converter linha digitável para código de barras"): a
 *   telecom bill, value id 6 → mod 10.
 * The layout itself: FEBRABAN, "Layout Padrão de Arrecadação/Recebimento com Utilização do Código de
 * Barras" (https://portal.febraban.org.br/pagina/3166/33/pt-br/layour-arrecadacao), sections on the
 * modulo 10 and modulo 11 check digits.
 * - [D] gesielr/guiasMEIlast, apps/backend/inss/ESTRUTURA_CORRETA_GPS.md: an INSS GPS (segment 5,
 *   value id 8 → mod 11) as printed on the official form; its last block has a remainder of 1 → DV 0.
 * - [E] a public boleto-parsing library's test ("should return 0 if the type is aggrement"): a
 *   government slip by modulo 11 whose GENERAL remainder is 10 → DV 1 (the layout's third case).
 */
const PUBLICADOS = [
  { fonte: 'A', modulo: 11, codigo: '83860000005096000190000008017823000034306271', linha: '838600000050096000190009000801782309000343062712', valor: 509_60 },
  { fonte: 'B', modulo: 11, codigo: '85820000000572503282035607082021053959190446', linha: '858200000007572503282030560708202107539591904460', valor: 57_25 },
  { fonte: 'C', modulo: 10, codigo: '84630000000299902962020041013600000200644114', linha: '846300000003299902962024004101360008002006441147', valor: 29_99 },
  { fonte: 'D', modulo: 11, codigo: '85820000001669802701163000128001867222025113', linha: '858200000015669802701162300012800189672220251130', valor: 166_98 },
  { fonte: 'E', modulo: 11, codigo: '85810000000572503282008007082007854398892423', linha: '858100000005572503282005800708200789543988924230', valor: 57_25 },
] as const;

describe('FEBRABAN arrecadação: published examples', () => {
  for (const p of PUBLICADOS) {
    it(`[${p.fonte}] modulo ${p.modulo}: the general check digit verifies, and the linha digitável is the published one`, () => {
      expect(codigoBarrasValido(p.codigo)).toBe(true);
      expect(linhaDigitavel(p.codigo)).toBe(p.linha);
      expect(codigoBarrasDaLinha(p.linha)).toBe(p.codigo);
      expect(valorDoCodigo(p.codigo)).toBe(p.valor);
      // Rebuilding it from its fields gives the same 44 digits (the general DV computed, not copied).
      const rebuilt = montarCodigoBarras({
        segmento: p.codigo[1]!,
        identificadorValor: p.codigo[2]!,
        valorCentavos: Number(p.codigo.slice(4, 15)),
        codigoOrgao: p.codigo.slice(15, 19),
        campoLivre: p.codigo.slice(19),
      });
      expect(rebuilt).toBe(p.codigo);
    });
  }

  it('modulo 11 gives 0 for a remainder of 0 or 1 and 1 for a remainder of 10 ([B], [D], [E])', () => {
    expect(modulo11('57250328203')).toBe(0); // remainder 1 ([B], block 2)
    expect(modulo11('67222025113')).toBe(0); // remainder 1 ([D], block 4)
    const e = PUBLICADOS[4].codigo;
    expect(modulo11(e.slice(0, 3) + e.slice(4))).toBe(1); // remainder 10 ([E], the general DV)
    expect(modulo11('0')).toBe(0); // remainder 0
  });

  it('modulo 10 adds the digits of two-digit products and gives 0 for a remainder of 0', () => {
    // 2·9=18 → 1+8 = 9: the check digit of "9" is 1.
    expect(modulo10('9')).toBe(1);
    expect(modulo10('0')).toBe(0);
    expect(modulo10('84630000000')).toBe(3); // [C], block 1
    expect(modulo10('29990296202')).toBe(4); // [C], block 2
  });

  it('refuses a wrong check digit, a block typed wrong, a wrong length and a non-arrecadação product', () => {
    const a = PUBLICADOS[0].codigo;
    expect(codigoBarrasValido(`${a.slice(0, 3)}${(Number(a[3]) + 1) % 10}${a.slice(4)}`)).toBe(false);
    expect(codigoBarrasValido(`${a.slice(0, 20)}${(Number(a[20]) + 1) % 10}${a.slice(21)}`)).toBe(false);
    expect(codigoBarrasValido(a.slice(1))).toBe(false);
    expect(codigoBarrasValido(`2${a.slice(1)}`)).toBe(false);
    expect(codigoBarrasValido(`${a.slice(0, 2)}5${a.slice(3)}`)).toBe(false); // value id 5 does not exist
    const linha = PUBLICADOS[1].linha;
    expect(codigoBarrasDaLinha(`${linha.slice(0, 11)}${(Number(linha[11]) + 1) % 10}${linha.slice(12)}`)).toBeNull();
    expect(() => linhaDigitavel('12345')).toThrow();
  });

  it('formats the linha digitável in four blocks with their check digits', () => {
    expect(formatarLinhaDigitavel(PUBLICADOS[1].linha)).toBe('85820000000-7 57250328203-0 56070820210-7 53959190446-0');
  });
});

describe('our DAE barcode', () => {
  it('is product 8, the government segment, the configured value id, the value in centavos, the body code and the free field', () => {
    const livre = campoLivre('2026-12-15', '2026-11', 42);
    expect(livre).toBe('2026121520261100000000042');
    const codigo = montarCodigoBarras({ segmento: SEGMENTO_ORGAOS_GOVERNAMENTAIS, identificadorValor: IDENTIFICADOR_VALOR, valorCentavos: 750_60, codigoOrgao: codigoOrgao(), campoLivre: livre });
    expect(codigo).toHaveLength(44);
    expect(codigo.slice(0, 3)).toBe('856');
    expect(codigo.slice(4, 15)).toBe('00000075060');
    expect(codigo.slice(15, 19)).toBe('0001');
    expect(codigo.slice(19)).toBe(livre);
    expect(codigoBarrasValido(codigo)).toBe(true);
    expect(codigoBarrasDaLinha(linhaDigitavel(codigo))).toBe(codigo);
  });

  it('verifies by modulo 11 as well when the value id says so', () => {
    const codigo = montarCodigoBarras({ segmento: '5', identificadorValor: '8', valorCentavos: 1, codigoOrgao: '0001', campoLivre: campoLivre('2026-12-31', '2026-10', 99_999_999_999) });
    expect(codigoBarrasValido(codigo)).toBe(true);
    expect(codigoBarrasDaLinha(linhaDigitavel(codigo))).toBe(codigo);
  });

  it('refuses values and fields that do not fit', () => {
    const base = { segmento: '5', identificadorValor: '6', valorCentavos: 1, codigoOrgao: '0001', campoLivre: '0'.repeat(25) };
    expect(() => montarCodigoBarras({ ...base, valorCentavos: 100_000_000_000 })).toThrow();
    expect(() => montarCodigoBarras({ ...base, valorCentavos: 1.5 })).toThrow();
    expect(() => montarCodigoBarras({ ...base, codigoOrgao: '12' })).toThrow();
    expect(() => montarCodigoBarras({ ...base, campoLivre: '1' })).toThrow();
    expect(() => montarCodigoBarras({ ...base, identificadorValor: '1' })).toThrow();
    expect(() => campoLivre('2026-12-15', '2026-11', 0)).toThrow();
  });
});

describe('the DAE back from its barcode', () => {
  it('reads the number and the due date out of the free field', () => {
    const codigo = montarCodigoBarras({ segmento: '5', identificadorValor: '6', valorCentavos: 750_60, codigoOrgao: '0001', campoLivre: campoLivre('2026-12-15', '2026-11', 98_765) });
    expect(daeDoCodigoBarras(codigo)).toEqual({ numero: 98_765, dtVencimento: '2026-12-15' });
  });
});
