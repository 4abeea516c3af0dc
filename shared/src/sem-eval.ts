import { config } from 'zod';

/**
 * The portal's CSP has no 'unsafe-eval' (infra/lib/security-headers.ts). zod compiles a fast object
 * parser with `new Function` and probes for it when each object schema is made; jitless makes it use
 * its plain parser and never probe, so no script evaluation is refused. Imported first by the portal's
 * web/src/main.tsx, before any module builds a schema (the flag is read when a schema is made); the
 * functions keep the compiled parser (Lambda allows eval).
 */
config({ jitless: true });
