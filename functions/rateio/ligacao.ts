import { usarRepartidor } from '../faturamento/service';
import { partesDaFatura } from './repartir';

/**
 * Billing keeps the Pagamento de Serviços rows and counters, whose paid rows carry the repasse's shares
 * (functions/faturamento/linhas-pagamento.ts); the shares are this context's rule. Every entry that
 * writes invoices (billing's API and run, the bank-return job, the prepaid API's DAE, the repasse's API
 * and run) calls this before it serves; an invoice written without it fails loudly instead of counting
 * a paid row with no shares.
 */
export function ligarRepartidor(): void {
  usarRepartidor(partesDaFatura);
}
