import { SERVICO } from '@plac/shared/domain';
import type { ContaRecord } from './store';

/** The unit value (thousandths) an account's reservation fixed for a service: what each use debits. */
export const valorUnitarioDe = (c: Pick<ContaRecord, 'valores'>, servico: number): number =>
  servico === SERVICO.envioFate
    ? (c.valores.envioFate ?? 0)
    : servico === SERVICO.monitoramentoDocumentos
      ? (c.valores.monitoramento ?? 0)
      : servico === SERVICO.registroCessao
        ? (c.valores.registroCessao ?? 0)
        : 0;

/** The cheapest use of the account (thousandths): a balance below it pays for nothing more. */
export const saldoMinimo = (c: ContaRecord) => Math.max(1, Math.min(...[c.valores.envioFate, c.valores.monitoramento, c.valores.registroCessao].filter((v): v is number => !!v && v > 0)));
