/**
 * Demo consumption for the local twin: six months (this one included) of charged look-ups and a few
 * not-found ones for the active demo clients, written through the metering service as the look-ups
 * write them, so that the consumption screens, the report and the monitoring charts show figures.
 *
 * Idempotent: every charge has a fixed idempotency key (a retry is 'repetida', never counted twice),
 * a (client, month) already complete is skipped without a write, and the current month grows by the
 * days that have passed since the last start. The not-found look-ups of a (client, month) are written
 * only while it has none.
 */
import { addDays, monthOf, previousMonth, todayInBahia, UFS } from '@plac/shared/domain';
import { cobrarConsulta, registrarNaoEncontrada } from '../../functions/consumo/cobranca';
import { consumoDoCliente } from '../../functions/consumo';
import { instantesNaoEncontradasDoCliente } from '../../functions/consumo/store';
import { DEMO_CLIENTES } from './demo-data';

const MESES = 6;
/** Who is charged, how much per month, and from which origin UFs. */
const PERFIS: { clienteId: string; porMes: number; servicos: number[]; ufs: string[] }[] = [
  { clienteId: 'demo-esf', porMes: 48, servicos: [1, 2, 5, 4], ufs: ['BA', 'SP', 'PE', 'MG'] },
  { clienteId: 'demo-imf', porMes: 30, servicos: [1, 3, 5, 7], ufs: ['SP', 'BA', 'RJ'] },
  { clienteId: 'demo-shopping', porMes: 12, servicos: [1, 2], ufs: ['RJ', 'BA'] },
];

/** A small deterministic generator (mulberry32), so a month's charges are the same at every start. */
function gerador(semente: string) {
  let a = [...semente].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 2_654_435_761) >>> 0, 1_779_033_703);
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}

const cuf = (uf: string) => String(UFS.find((u) => u.uf === uf)?.codigo ?? 29);

/** A 44-digit access-key look-alike of the UF and month (never a real document). */
function chave(uf: string, mes: string, n: number): string {
  return `${cuf(uf)}${mes.slice(2, 4)}${mes.slice(5, 7)}11222333000181550010${String(n).padStart(9, '0')}1`.padEnd(44, '0').slice(0, 44);
}

export interface CobrancaDemo {
  clienteId: string;
  servico: number;
  uf: string;
  chave: string;
  idempotencyKey: string;
  agora: Date;
}

/** The demo charges of a client's month, up to `ate` (YYYY-MM-DD, today for the current month). */
export function cobrancasDoMes(perfil: (typeof PERFIS)[number], mes: string, ate: string): CobrancaDemo[] {
  const sorteio = gerador(`${perfil.clienteId}:${mes}`);
  const lista: CobrancaDemo[] = [];
  for (let n = 0; n < perfil.porMes; n++) {
    const dia = 1 + sorteio(28);
    const servico = perfil.servicos[sorteio(perfil.servicos.length)]!;
    const uf = perfil.ufs[sorteio(perfil.ufs.length)]!;
    const hora = 8 + sorteio(10);
    const data = `${mes}-${String(dia).padStart(2, '0')}`;
    if (data > ate) continue;
    lista.push({
      clienteId: perfil.clienteId,
      servico,
      uf,
      chave: chave(uf, mes, n),
      idempotencyKey: `demo-${mes}-${n}`,
      agora: new Date(`${data}T${String(hora).padStart(2, '0')}:${String(sorteio(60)).padStart(2, '0')}:00-03:00`),
    });
  }
  return lista;
}

export async function seedConsumo(hoje: string = todayInBahia()): Promise<void> {
  const ativos = new Set(DEMO_CLIENTES.filter((c) => c.situacao === 'A').map((c) => c.clienteId));
  const meses = [monthOf(hoje)];
  while (meses.length < MESES) meses.unshift(previousMonth(meses[0]!));
  for (const perfil of PERFIS.filter((p) => ativos.has(p.clienteId))) {
    const cliente = DEMO_CLIENTES.find((c) => c.clienteId === perfil.clienteId)!;
    for (const mes of meses) {
      const planejadas = cobrancasDoMes(perfil, mes, hoje);
      const feitas = (await consumoDoCliente(perfil.clienteId, mes)).reduce((sum, c) => sum + c.requisicoes, 0);
      if (feitas < planejadas.length) {
        // A few at a time: DynamoDB Local is on the same machine as everything else.
        for (let i = 0; i < planejadas.length; i += 8) await Promise.all(planejadas.slice(i, i + 8).map((c) => cobrarConsulta(c)));
      }
      if ((await instantesNaoEncontradasDoCliente(perfil.clienteId, mes)).length === 0) {
        const sorteio = gerador(`nao-encontrada:${perfil.clienteId}:${mes}`);
        const quantas = 2 + sorteio(4);
        for (let n = 0; n < quantas; n++) {
          const dia = addDays(`${mes}-01`, sorteio(28));
          if (dia > hoje) continue;
          const uf = perfil.ufs[sorteio(perfil.ufs.length)]!;
          await registrarNaoEncontrada({
            uf,
            chnfe: chave(uf, mes, 900_000 + n),
            servico: perfil.servicos[0]!,
            status: n % 3 === 2 ? 'CHAVE_INVALIDA' : 'NAO_ENCONTRADA',
            clienteId: perfil.clienteId,
            cnpj: cliente.cnpj,
            razaoSocial: cliente.razaoSocial,
            agora: new Date(`${dia}T14:${String(10 + n).padStart(2, '0')}:00-03:00`),
          });
        }
      }
    }
  }
}
