/**
 * FEBRABAN's barcode, the Interleaved 2 of 5 of the 44 digits, drawn by us: bwip-js carried every
 * symbology (949 KiB) into the billing API to draw this one (issue 27 item 2).
 *
 * The rule: each pair of digits is five bars (the first digit) interleaved with five spaces (the
 * second), two of each five wide; a start of four narrow elements (bar, space, bar, space) and a stop
 * of a wide bar, a narrow space and a narrow bar. We draw wide = 3 narrow (FEBRABAN allows 2.25 to 3).
 */

/** N/W of each digit's five elements (1 = wide). */
const PADROES = ['00110', '10001', '01001', '11000', '00101', '10100', '01100', '00011', '10010', '01010'] as const;
const LARGO = 3;
/** The quiet zone each side, in narrow modules (at least 10 per the symbology). */
const ZONA_LIVRE = 12;

/** The widths in narrow modules of the elements, bar first and alternating bar/space. */
export function elementosI2of5(digitos: string): number[] {
  if (!/^\d*$/.test(digitos) || digitos.length % 2 !== 0) throw new RangeError('Interleaved 2 of 5 takes an even number of digits');
  const larguras = [1, 1, 1, 1];
  for (let i = 0; i < digitos.length; i += 2) {
    const barras = PADROES[Number(digitos[i])]!;
    const espacos = PADROES[Number(digitos[i + 1])]!;
    for (let j = 0; j < 5; j++) larguras.push(barras[j] === '1' ? LARGO : 1, espacos[j] === '1' ? LARGO : 1);
  }
  larguras.push(LARGO, 1, 1);
  return larguras;
}

/**
 * The barcode as an 8-bit gray image (0 black, 255 white), `modulo` pixels per narrow module and
 * `altura` rows, with its quiet zone: what the PDF embeds, scaled to the printed size without smoothing.
 */
export function imagemI2of5(digitos: string, modulo = 2, altura = 8): { largura: number; altura: number; pixels: Uint8Array } {
  const elementos = elementosI2of5(digitos);
  const modulos = elementos.reduce((a, b) => a + b, 0) + 2 * ZONA_LIVRE;
  const largura = modulos * modulo;
  const linha = new Uint8Array(largura).fill(255);
  let x = ZONA_LIVRE * modulo;
  elementos.forEach((w, i) => {
    if (i % 2 === 0) linha.fill(0, x, x + w * modulo);
    x += w * modulo;
  });
  const pixels = new Uint8Array(largura * altura);
  for (let y = 0; y < altura; y++) pixels.set(linha, y * largura);
  return { largura, altura, pixels };
}
