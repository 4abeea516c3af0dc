/**
 * The portal's security headers as plain data, used by the CloudFront response-headers policy
 * (stacks/web-stack.ts) and available to the twin's web server, so both send the same policy.
 */

/** PrimeReact injects <style> elements at run time, hence 'unsafe-inline' for styles only. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data: blob: https://*.amazonaws.com",
  "style-src 'self' 'unsafe-inline'",
  "script-src 'self'",
  "connect-src 'self' https://*.amazonaws.com",
  "font-src 'self' data:",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/** Two years, as the HSTS preload list requires (at least one year, includeSubDomains, preload). */
export const HSTS_MAX_AGE_SECONDS = 63_072_000;

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'strict-transport-security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains; preload`,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
};
