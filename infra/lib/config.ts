/**
 * Deployment settings read from CDK context (`-c key=value` or cdk.json), typed and checked once so
 * that the stacks never touch raw context. Everything has a default except the optional custom
 * domains, which are all-or-nothing.
 */
import type { Node } from 'constructs';

export interface MtlsSettings {
  /** e.g. api-mtls.plac.example.gov.br */
  readonly domainName: string;
  /** Regional ACM certificate (same region as the API) covering domainName. */
  readonly certificateArn: string;
  /** With a hosted zone, an alias record is created; without one, point DNS at the output yourself. */
  readonly hostedZoneId?: string;
  readonly hostedZoneName?: string;
}

export interface PortalDomainSettings {
  readonly domainName: string;
  /** ACM certificate in us-east-1 (CloudFront's region). */
  readonly certificateArn: string;
}

export interface AppConfig {
  /** APP_STAGE of every function; `local` is reserved for the twin. */
  readonly stage: string;
  readonly mailDomain: string;
  readonly mailFrom: string;
  readonly mtls?: MtlsSettings;
  readonly portalDomain?: PortalDomainSettings;
  /** Origin allowed by the documents bucket's CORS rule (presigned PUT/GET from the browser). */
  readonly portalOrigin: string;
  /** Optional e-mail subscribed to the alarm topic. */
  readonly alarmEmail?: string;
  /**
   * The Sefaz distribution service (base URL, `<url>/<UF>/NFeDistribuicaoDFe`), the Secrets Manager
   * secret with the platform's e-CNPJ (`{ "cert", "key", "ca"? }` PEMs) and the active UFs
   * (comma-separated; all 27 when unset). Without them the Sefaz load's schedule is not created.
   */
  readonly sefaz?: { readonly url: string; readonly credentialsSecretArn: string; readonly ufs?: string };
  /**
   * The Sefaz environment the stage works in (context `sefazAmbiente`): `producao` (default) loads
   * only tpAmb 1 documents; `homologacao` asks the homologation services and accepts tpAmb 2 too.
   */
  readonly sefazAmbiente: 'producao' | 'homologacao';
  /**
   * AWS WAF on CloudFront (context `waf`: `on`, the default, or `off`): a web ACL in us-east-1 (the
   * PlacEdge stack, CloudFront's region) with AWS's managed rules and a per-IP rate limit on the
   * public routes. `off` only for a throw-away account: the portal's logins are then held by the
   * stage's throttling alone.
   */
  readonly waf: boolean;
}

export const DEFAULT_MAIL_DOMAIN = 'plac.example.gov.br';

/**
 * Without a custom portal domain the CloudFront host name is only known after the first deploy and
 * lives in another stack (a cross-stack reference from the data stack would be a cycle), so CORS
 * falls back to any CloudFront host. Presigned URLs still carry their own signature, so this only
 * widens which pages may read a response they already hold a valid URL for. Set `portalOrigin` (or
 * `portalDomainName`) in production.
 */
export const FALLBACK_PORTAL_ORIGIN = 'https://*.cloudfront.net';

export function readConfig(node: Node): AppConfig {
  const text = (key: string): string | undefined => {
    const value: unknown = node.tryGetContext(key);
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') throw new Error(`context ${key} must be a string`);
    return value.trim();
  };

  const stage = text('stage') ?? 'prod';
  if (stage === 'local') throw new Error("context stage 'local' is reserved for the twin");
  const mailDomain = text('mailDomain') ?? DEFAULT_MAIL_DOMAIN;

  const mtlsDomainName = text('mtlsDomainName');
  const mtlsCertificateArn = text('mtlsCertificateArn');
  if (Boolean(mtlsDomainName) !== Boolean(mtlsCertificateArn)) {
    throw new Error('context mtlsDomainName and mtlsCertificateArn must be given together');
  }
  const hostedZoneId = text('hostedZoneId');
  const mtls: MtlsSettings | undefined =
    mtlsDomainName && mtlsCertificateArn
      ? {
          domainName: mtlsDomainName,
          certificateArn: mtlsCertificateArn,
          ...(hostedZoneId
            ? { hostedZoneId, hostedZoneName: text('hostedZoneName') ?? mtlsDomainName.split('.').slice(1).join('.') }
            : {}),
        }
      : undefined;

  const portalDomainName = text('portalDomainName');
  const portalCertificateArn = text('portalCertificateArn');
  if (Boolean(portalDomainName) !== Boolean(portalCertificateArn)) {
    throw new Error('context portalDomainName and portalCertificateArn must be given together');
  }
  const portalDomain =
    portalDomainName && portalCertificateArn ? { domainName: portalDomainName, certificateArn: portalCertificateArn } : undefined;

  const alarmEmail = text('alarmEmail');
  const sefazUrl = text('sefazUrl');
  const sefazCredentialsSecretArn = text('sefazCredentialsSecretArn');
  if (Boolean(sefazUrl) !== Boolean(sefazCredentialsSecretArn)) {
    throw new Error('context sefazUrl and sefazCredentialsSecretArn must be given together');
  }
  const sefazUfs = text('sefazUfs');
  const sefazAmbiente = text('sefazAmbiente') ?? 'producao';
  if (sefazAmbiente !== 'producao' && sefazAmbiente !== 'homologacao') throw new Error("context sefazAmbiente must be 'producao' or 'homologacao'");
  const waf = text('waf') ?? 'on';
  if (waf !== 'on' && waf !== 'off') throw new Error("context waf must be 'on' or 'off'");
  return {
    stage,
    mailDomain,
    waf: waf === 'on',
    mailFrom: text('mailFrom') ?? `nao-responda@${mailDomain}`,
    ...(mtls ? { mtls } : {}),
    ...(portalDomain ? { portalDomain } : {}),
    portalOrigin: text('portalOrigin') ?? (portalDomain ? `https://${portalDomain.domainName}` : FALLBACK_PORTAL_ORIGIN),
    ...(alarmEmail ? { alarmEmail } : {}),
    sefazAmbiente,
    ...(sefazUrl && sefazCredentialsSecretArn ? { sefaz: { url: sefazUrl, credentialsSecretArn: sefazCredentialsSecretArn, ...(sefazUfs ? { ufs: sefazUfs } : {}) } } : {}),
  };
}
