import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { metrics } from './observability';

/**
 * The business counts of docs/operations.md ("Tracing and metrics"), as CloudWatch Embedded Metric
 * Format lines in the function's log (namespace PLAC, dimension service): no API call and no latency,
 * CloudWatch extracts them. Each is published at once (a single-metric line), so no handler has to
 * remember to flush.
 *   ConsultasRespondidas   look-up requests answered 2xx (portal and integrator API; a CSV batch is one)
 *   EntregasWebhook        webhook deliveries the receiver accepted (2xx)
 *   EntregasWebhookFalhas  webhook delivery attempts that failed (each retry counts)
 *   FaturasEmitidas        invoices a billing run issued (not those it found already issued)
 *   FaturamentoFalhas      clients a billing run could not bill
 * Only in Lambda: the twin (APP_STAGE=local) and the tests write none, so their logs stay readable.
 */
export type BusinessMetric = 'ConsultasRespondidas' | 'EntregasWebhook' | 'EntregasWebhookFalhas' | 'FaturasEmitidas' | 'FaturamentoFalhas';

export function countBusiness(name: BusinessMetric, value = 1): void {
  if (!process.env.AWS_LAMBDA_FUNCTION_NAME || process.env.APP_STAGE === 'local' || value <= 0) return;
  try {
    metrics.singleMetric().addMetric(name, MetricUnit.Count, value);
  } catch {
    // A metric is never worth failing the request or the delivery it counts.
  }
}
