/**
 * The SSRF guard lives in the platform kernel (functions/platform/url-guard.ts) since both the
 * clients context (a configuration's URL when saved) and this one (when a delivery is sent) use it,
 * and the clients context may not import webhooks: the webhooks context reads the clients', consent
 * and metering services (the producers), so that would be a cycle between contexts.
 */
export * from '../platform/url-guard';
