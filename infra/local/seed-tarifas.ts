/**
 * Demo bands and tariffs: a version in the history, the current one and a draft, with unit values
 * for every service of the catalogue, dated relative to the month the twin starts in (the history
 * ended 6 months ago, the current one started 5 months ago and ends next month, the draft starts the
 * month after). Written once, through the tariffs service: a twin that already has a timeline keeps
 * it, whatever an administrator did with it.
 */
import { monthOf, nextMonth, previousMonth } from '@plac/shared/domain';
import * as servicos from '../../functions/servicos/service';
import { semearDemo, type VersaoDemo } from '../../functions/tarifas/service';

const shift = (mes: string, by: number) => {
  let m = mes;
  for (let i = 0; i < Math.abs(by); i++) m = by > 0 ? nextMonth(m) : previousMonth(m);
  return m;
};

/** Unit values in thousandths of a real, per service id: [history bands], [current bands] (4 bands). */
const VALORES: Record<number, { historico: number[]; vigente: number[]; elaboracao: number[] }> = {
  1: { historico: [180, 150, 120], vigente: [150, 120, 95, 80], elaboracao: [145, 115, 90, 75] }, // Fat-e por chave de acesso
  2: { historico: [280, 240, 200], vigente: [250, 200, 160, 130], elaboracao: [240, 195, 155, 125] }, // por composição de dados
  3: { historico: [400, 350, 300], vigente: [350, 300, 250, 200], elaboracao: [350, 290, 240, 190] }, // recebível em avaliação
  4: { historico: [1_000, 850, 700], vigente: [900, 750, 600, 500], elaboracao: [880, 730, 580, 480] }, // faturamento NFC-e
  5: { historico: [1_000, 850, 700], vigente: [900, 750, 600, 500], elaboracao: [880, 730, 580, 480] }, // faturamento NF-e
  6: { historico: [60, 50, 40], vigente: [50, 40, 30, 25], elaboracao: [50, 40, 30, 25] }, // monitoramento de documentos
  7: { historico: [140, 120, 100], vigente: [120, 100, 80, 60], elaboracao: [115, 95, 75, 55] }, // Fat-e transportadora
  8: { historico: [600, 550, 500], vigente: [500, 450, 400, 350], elaboracao: [480, 430, 380, 330] }, // registro de cessão
  9: { historico: [25, 20, 15], vigente: [20, 15, 12, 10], elaboracao: [20, 15, 12, 10] }, // envio de Fat-e
};

export function demoVersoes(mes: string, servIds: readonly number[]): VersaoDemo[] {
  const valores = (kind: 'historico' | 'vigente' | 'elaboracao') =>
    Object.fromEntries(servIds.map((id) => [id, VALORES[id]?.[kind] ?? []]));
  const faixasVigentes = {
    id: 'demo-gf-vigente',
    descricao: 'Faixas de Cobrança Vigentes',
    faixaPromocional: 1,
    faixas: [
      { qtdMinima: 1, qtdMaxima: 5_000 },
      { qtdMinima: 5_001, qtdMaxima: 50_000 },
      { qtdMinima: 50_001, qtdMaxima: 500_000 },
      { qtdMinima: 500_001, qtdMaxima: null },
    ],
  };
  return [
    {
      inicio: shift(mes, -14),
      fim: shift(mes, -6),
      grupoFaixa: {
        id: 'demo-gf-historico',
        descricao: 'Faixas de Cobrança Iniciais',
        faixaPromocional: null,
        faixas: [
          { qtdMinima: 1, qtdMaxima: 10_000 },
          { qtdMinima: 10_001, qtdMaxima: 100_000 },
          { qtdMinima: 100_001, qtdMaxima: null },
        ],
      },
      grupoTarifa: { id: 'demo-gt-historico', descricao: 'Tarifas Iniciais', assinatura: 50_000, valores: valores('historico') },
    },
    {
      inicio: shift(mes, -5),
      fim: shift(mes, 1),
      grupoFaixa: faixasVigentes,
      grupoTarifa: { id: 'demo-gt-vigente', descricao: 'Tarifas Vigentes', assinatura: 75_000, valores: valores('vigente') },
    },
    {
      inicio: shift(mes, 2),
      grupoFaixa: faixasVigentes,
      grupoTarifa: { id: 'demo-gt-elaboracao', descricao: 'Tarifas em Elaboração', assinatura: 80_000, valores: valores('elaboracao') },
    },
  ];
}

export async function seedTarifas(): Promise<void> {
  const servIds = (await servicos.todos()).map((s) => s.idModuloServico);
  await semearDemo(demoVersoes(monthOf(new Date()), servIds), 'dados de demonstração');
}
