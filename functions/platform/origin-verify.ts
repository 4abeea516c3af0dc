import { timingSafeEqual } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/**
 * The web API is reached only through CloudFront (its WAF, its logs, its security headers): CloudFront
 * adds ORIGIN_VERIFY_HEADER, with the value of the data stack's OriginVerifySecret, to every request it
 * forwards, and the stack gives the HTTP functions that value as ORIGIN_VERIFY. A request that arrived
 * on the API's own execute-api host without it went around CloudFront and is refused.
 * Not checked: requests on a custom domain (the mutual-TLS API, whose execute-api endpoint is disabled
 * and whose client certificate is the proof), and the twin, which sets no ORIGIN_VERIFY.
 * infra/lib/topology.ts has the same header name (a test keeps them equal).
 */
export const ORIGIN_VERIFY_HEADER = 'x-plac-origin-verify';

const EXECUTE_API_HOST = /\.execute-api\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/i;

export function cameThroughCloudFront(event: Pick<APIGatewayProxyEventV2, 'headers' | 'requestContext'>, expected = process.env.ORIGIN_VERIFY): boolean {
  if (!expected) return true;
  const host = event.requestContext?.domainName;
  // A custom domain (mTLS) is its own way in; a missing host name is treated as execute-api's.
  if (host && !EXECUTE_API_HOST.test(host)) return true;
  const sent = event.headers?.[ORIGIN_VERIFY_HEADER];
  if (!sent) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  // Constant time, so the value cannot be guessed a character at a time from the answer's timing.
  return a.length === b.length && timingSafeEqual(a, b);
}
