import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { signToken } from '../../functions/platform/auth/tokens';

/**
 * A signed-in browser session without the login screen: a real token signed with the e2e twin's own
 * secret, stored where the portal keeps its session. (The login screens have their own tests.)
 */
export async function signIn(page: Page, principal: Principal) {
  const { tokenSecret } = JSON.parse(readFileSync(join(process.env.PLAC_E2E_DATA!, 'secrets.json'), 'utf8')) as { tokenSecret: string };
  process.env.TOKEN_SECRET = tokenSecret;
  const token = await signToken(principal, 600);
  await page.goto('/message?title=x&body=y');
  await page.evaluate(
    ([user, token]) => sessionStorage.setItem('plac-fate.session', JSON.stringify({ user, token, filters: {}, reportProcessing: null })),
    [principal, token] as const,
  );
}
