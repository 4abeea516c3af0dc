/**
 * `npm run banco -- [--pagamento AAAA-MM-DD] [--valor CENTAVOS] <linha digitável or barcode>…`: the
 * twin's bank. The twin has no collecting bank, so this writes the FEBRABAN return file a bank would send
 * after these DAEs were paid, dated today, into .data/retornos/; the administrator uploads it on
 * 'Retorno Bancário' (/app/fatura/retornoBancario), which pays the invoice or credits the prepaid
 * account. Each DAE is paid today for the value in its barcode, unless --pagamento gives another day
 * (today at the latest: a payment after its file's date is not paid) or --valor another amount in
 * centavos (less than due: a partial payment; more: the surcharge of a late one). Spaces and dots of a
 * printed linha digitável are ignored.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { addDays, todayInBahia } from '@plac/shared/domain';
import { codigoBarrasDaLinha, codigoBarrasValido, valorDoCodigo } from '../../functions/dae/febraban';
import { escreverRetorno } from '../../functions/faturamento/retorno/layout';

const dataDir = process.env.PLAC_DATA_DIR ?? fileURLToPath(new URL('../../.data', import.meta.url));
const USO = 'Uso: npm run banco -- [--pagamento AAAA-MM-DD] [--valor CENTAVOS] <linha digitável ou código de barras do DAE> [outros…]';
const { values: opcoes, positionals } = parseArgs({ options: { pagamento: { type: 'string' }, valor: { type: 'string' } }, allowPositionals: true });
const entradas = positionals.map((a) => a.replace(/[\s.-]/g, ''));
if (entradas.length === 0) {
  console.error(USO);
  process.exit(1);
}
const hoje = todayInBahia();
const dataPagamento = opcoes.pagamento ?? hoje;
if (!/^\d{4}-\d{2}-\d{2}$/.test(dataPagamento) || dataPagamento > hoje) {
  console.error(`--pagamento deve ser uma data AAAA-MM-DD até hoje (${hoje}).\n${USO}`);
  process.exit(1);
}
if (opcoes.valor !== undefined && !/^\d{1,11}$/.test(opcoes.valor)) {
  console.error(`--valor deve ser um valor em centavos (ex.: 75998).\n${USO}`);
  process.exit(1);
}
const codigos = entradas.map((e) => (e.length === 48 ? codigoBarrasDaLinha(e) : e));
const invalido = codigos.findIndex((c) => !c || !codigoBarrasValido(c));
if (invalido >= 0) {
  console.error(`Não é um DAE válido: ${entradas[invalido]}`);
  process.exit(1);
}
const nsa = Math.floor(Date.now() / 1000) % 999_999;
const arquivo = escreverRetorno({
  convenio: '000777',
  banco: '001',
  nomeBanco: 'Banco do Brasil',
  dataGeracao: hoje,
  nsa,
  pagamentos: codigos.map((c) => ({
    dataPagamento,
    dataCredito: addDays(dataPagamento, 1),
    codigoBarras: c!,
    valorRecebido: opcoes.valor !== undefined ? Number(opcoes.valor) : (valorDoCodigo(c!) ?? 0),
  })),
});
const pasta = join(dataDir, 'retornos');
await mkdir(pasta, { recursive: true });
const caminho = join(pasta, `retorno-${hoje}-${nsa}.ret`);
await writeFile(caminho, arquivo, 'latin1');
console.log(`Arquivo de retorno gravado: ${caminho}\nImporte-o em Gestão › Retorno Bancário (/app/fatura/retornoBancario) como administrador.`);
