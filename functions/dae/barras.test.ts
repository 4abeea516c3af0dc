import { describe, expect, it } from 'vitest';
import { elementosI2of5, imagemI2of5 } from './barras';

describe('Interleaved 2 of 5 (FEBRABAN barcode)', () => {
  it('a pair is five bars and five spaces, two wide of each; start four narrow, stop wide-narrow-narrow', () => {
    // "38": 3 = WWNNN in the bars, 8 = WNNWN in the spaces.
    expect(elementosI2of5('38')).toEqual([1, 1, 1, 1, 3, 3, 3, 1, 1, 1, 1, 3, 1, 1, 3, 1, 1]);
    const e = elementosI2of5('0'.repeat(44));
    // 4 + 22 pairs × 10 + 3 elements; 44 digits of 2 wide + 3 narrow, at wide = 3.
    expect(e).toHaveLength(4 + 220 + 3);
    expect(e.reduce((a, b) => a + b, 0)).toBe(4 + 44 * (2 * 3 + 3) + 5);
  });

  it('refuses an odd count or what is not digits', () => {
    expect(() => elementosI2of5('123')).toThrow(RangeError);
    expect(() => elementosI2of5('12a4')).toThrow(RangeError);
  });

  it('draws black bars on white, with a white quiet zone each side, every row the same', () => {
    const { largura, altura, pixels } = imagemI2of5('38', 2, 3);
    const linha = [...pixels.subarray(0, largura)];
    expect(linha.slice(0, 24).every((p) => p === 255)).toBe(true);
    expect(linha.slice(-24).every((p) => p === 255)).toBe(true);
    // The first start bar: one narrow module (2 px) black, then a narrow space.
    expect(linha.slice(24, 28)).toEqual([0, 0, 255, 255]);
    for (let y = 1; y < altura; y++) expect([...pixels.subarray(y * largura, (y + 1) * largura)]).toEqual(linha);
  });
});
