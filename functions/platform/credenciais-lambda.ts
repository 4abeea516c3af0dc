/**
 * The credentials of a deployed function. Lambda puts the execution role's temporary credentials in
 * the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), and the SDK's default
 * chain reads the environment first, so in a bundle the rest of that chain (SSO, ini files, processes,
 * web identity through STS, instance metadata: about 130 KiB minified, half of it nested STS/SSO
 * clients) never runs. bundle-options.ts aliases `@aws-sdk/credential-provider-node` to this module
 * for the Lambda bundles only; tests and the twin run the sources with the whole chain.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

/** The name every generated client's runtime config imports from `@aws-sdk/credential-provider-node`. */
export const defaultProvider = (init: Parameters<typeof fromEnv>[0] = {}) => fromEnv(init);
