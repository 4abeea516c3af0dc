/** The key purpose of a webhook's Basic password (platform/crypto.ts: one derived key per purpose). */
export const WEBHOOK_SECRET_PURPOSE = 'webhook-credentials';
/** The key purpose of the webhook signing secrets (apart from the Basic credentials'). */
export const WEBHOOK_SIGNING_PURPOSE = 'webhook-signing';
