/**
 * `npm run evento -- <tipo> <chave> [--autor CNPJ] [--justificativa T] [--correcao T] [--protocolo P] [--valor CENTAVOS]`:
 * drops a receivable's evidence for the key into the Sefaz simulator's drop folder (docs/sefaz-simulator.md,
 * "Evidence"); the next Sefaz load stores and publishes it. `tipo` is an event type (210200 Confirmação,
 * 210210 Ciência, 210220 Desconhecimento, 210240 Operação não Realizada with --justificativa, 110130
 * Comprovante de Entrega, 110131 its cancellation with --protocolo of the 110130, 110110 Carta de Correção
 * with --correcao) or DEVOLUCAO (an NF-e of return of --valor centavos, issued by --autor).
 * A manifestation and a return are the recipient's: --autor is the NF-e's destinatário.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isValidChaveAcesso, isValidCnpj } from '@plac/shared/domain';
import { DESC_EVENTO, type TipoEvento } from './sefaz/evidencia-documents';
import { devolucaoPelaPastaDeEntrada, eventoPelaPastaDeEntrada } from './sefaz/evidencia';

const dataDir = process.env.PLAC_DATA_DIR ?? fileURLToPath(new URL('../../.data', import.meta.url));
const USO = `Uso: npm run evento -- <${Object.keys(DESC_EVENTO).join('|')}|DEVOLUCAO> <chave> [--autor CNPJ] [--justificativa T] [--correcao T] [--protocolo P] [--valor CENTAVOS]`;
const { values: o, positionals } = parseArgs({
  options: { autor: { type: 'string' }, justificativa: { type: 'string' }, correcao: { type: 'string' }, protocolo: { type: 'string' }, valor: { type: 'string' } },
  allowPositionals: true,
});
const [tipo = '', chave = ''] = positionals;
function falhar(texto: string): never {
  console.error(`${texto}\n${USO}`);
  process.exit(1);
}
if (!isValidChaveAcesso(chave)) falhar(`Chave de acesso inválida: ${chave}`);
if (o.autor !== undefined && !isValidCnpj(o.autor)) falhar(`CNPJ inválido: ${o.autor}`);
if (tipo === 'DEVOLUCAO') {
  if (!o.autor) falhar('A devolução é emitida pelo destinatário da NF-e: informe --autor.');
  if (!/^\d{1,11}$/.test(o.valor ?? '')) falhar('--valor deve ser um valor em centavos (ex.: 100000).');
  const { file, chave: propria } = await devolucaoPelaPastaDeEntrada(dataDir, chave, { valor: Number(o.valor), cnpjEmitente: o.autor });
  console.log(`NF-e de devolução ${propria} depositada em ${file}`);
} else {
  if (!Object.hasOwn(DESC_EVENTO, tipo)) falhar(`Tipo de evento desconhecido: ${tipo}`);
  const file = await eventoPelaPastaDeEntrada(dataDir, chave, {
    tpEvento: tipo as TipoEvento,
    ...(o.autor ? { cnpjAutor: o.autor } : {}),
    ...(o.justificativa ? { justificativa: o.justificativa } : {}),
    ...(o.correcao ? { correcao: o.correcao } : {}),
    ...(o.protocolo ? { protocoloEntrega: o.protocolo } : {}),
    ...(tipo === '110130' ? { recebedor: { documento: '52998224725', nome: 'Recebedor da mercadoria' } } : {}),
  }).catch((e: Error) => falhar(e.message));
  console.log(`Evento ${tipo} depositado em ${file}`);
}
