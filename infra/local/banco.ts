/**
 * `npm run banco -- <linha digitável or barcode>…`: the twin's bank. The twin has no collecting bank,
 * so this writes the FEBRABAN return file a bank would send after these DAEs were paid today, each for
 * the value in its barcode, into .data/retornos/; the administrator uploads it on 'Retorno Bancário'
 * (/app/fatura/retornoBancario), which pays the invoice or credits the prepaid account. Spaces and dots
 * of a printed linha digitável are ignored.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addDays, todayInBahia } from '@plac/shared/domain';
import { codigoBarrasDaLinha, codigoBarrasValido, valorDoCodigo } from '../../functions/faturamento/dae/febraban';
import { escreverRetorno } from '../../functions/faturamento/retorno/layout';

const dataDir = process.env.PLAC_DATA_DIR ?? fileURLToPath(new URL('../../.data', import.meta.url));
const entradas = process.argv.slice(2).map((a) => a.replace(/[\s.-]/g, ''));
if (entradas.length === 0) {
  console.error('Uso: npm run banco -- <linha digitável ou código de barras do DAE> [outros…]');
  process.exit(1);
}
const codigos = entradas.map((e) => (e.length === 48 ? codigoBarrasDaLinha(e) : e));
const invalido = codigos.findIndex((c) => !c || !codigoBarrasValido(c));
if (invalido >= 0) {
  console.error(`Não é um DAE válido: ${entradas[invalido]}`);
  process.exit(1);
}
const hoje = todayInBahia();
const nsa = Math.floor(Date.now() / 1000) % 999_999;
const arquivo = escreverRetorno({
  convenio: '000777',
  banco: '001',
  nomeBanco: 'Banco do Brasil',
  dataGeracao: hoje,
  nsa,
  pagamentos: codigos.map((c) => ({ dataPagamento: hoje, dataCredito: addDays(hoje, 1), codigoBarras: c!, valorRecebido: valorDoCodigo(c!) ?? 0 })),
});
const pasta = join(dataDir, 'retornos');
await mkdir(pasta, { recursive: true });
const caminho = join(pasta, `retorno-${hoje}-${nsa}.ret`);
await writeFile(caminho, arquivo, 'latin1');
console.log(`Arquivo de retorno gravado: ${caminho}\nImporte-o em Gestão › Retorno Bancário (/app/fatura/retornoBancario) como administrador.`);
