/**
 * Revenue sharing demo data:
 * - the banks, from the Central Bank's STR participants with a COMPE code (functions/grupos-rateio/bancos-oficiais.ts)
 *   rather than typed by hand; a bank whose code exists is left as an administrator may have corrected it;
 * - the participants (the Sefaz of every UF, FATEC and a residue fund) and two sharing groups dated
 *   relative to the month the twin starts in: one deactivated (from 12 to 7 months ago) and the current
 *   one (from 6 months ago, no end), with no draft. Written once: a twin that has a timeline keeps it.
 */
import { monthOf, nextMonth, previousMonth } from '@plac/shared/domain';
import { bancosOficiais } from '../../functions/grupos-rateio/bancos-oficiais';
import { bancos, grupos } from '../../functions/grupos-rateio';
import type { GrupoDemo } from '../../functions/grupos-rateio/grupos';

const shift = (mes: string, by: number) => {
  let m = mes;
  for (let i = 0; i < Math.abs(by); i++) m = by > 0 ? nextMonth(m) : previousMonth(m);
  return m;
};

const conta = (banco: string, agencia: string, numero: string) => ({ banco, agencia, dvAgencia: '1', conta: numero, dvConta: '0' });

export function demoGrupos(mes: string): GrupoDemo[] {
  return [
    {
      id: 'demo-rateio-inicial',
      descricao: 'Rateio Inicial',
      inicio: shift(mes, -12),
      fim: shift(mes, -7),
      percentualSefaz: 70,
      beneficiados: [
        { participanteId: 'sefaz-BA', tipo: 'SEFAZ', percentual: 0, conta: conta('001', '3832', '100200') },
        { participanteId: 'fatec', nome: 'FATEC', tipo: 'PARTICIPANTE', percentual: 25, conta: conta('104', '0655', '700800') },
        { participanteId: 'fundo-residuo', nome: 'Fundo de Resíduo da Distribuição', tipo: 'RESIDUO', percentual: 5, conta: conta('237', '1234', '55667') },
      ],
    },
    {
      id: 'demo-rateio-vigente',
      descricao: 'Rateio Vigente',
      inicio: shift(mes, -6),
      percentualSefaz: 60,
      beneficiados: [
        { participanteId: 'sefaz-BA', tipo: 'SEFAZ', percentual: 0, conta: conta('001', '3832', '100200') },
        { participanteId: 'sefaz-PE', tipo: 'SEFAZ', percentual: 0, conta: conta('001', '3234', '300400') },
        { participanteId: 'sefaz-RO', tipo: 'SEFAZ', percentual: 0, conta: conta('001', '2757', '500600') },
        { participanteId: 'sefaz-SP', tipo: 'SEFAZ', percentual: 0, convenioAtivo: false },
        { participanteId: 'fatec', nome: 'FATEC', tipo: 'PARTICIPANTE', percentual: 30, conta: conta('104', '0655', '700800') },
        { participanteId: 'fundo-residuo', nome: 'Fundo de Resíduo da Distribuição', tipo: 'RESIDUO', percentual: 10, conta: conta('237', '1234', '55667') },
      ],
    },
  ];
}

export async function seedRateio(): Promise<void> {
  await bancos.semear(bancosOficiais(), 'dados de demonstração');
  await grupos.semearDemo(demoGrupos(monthOf(new Date())), 'dados de demonstração');
}
