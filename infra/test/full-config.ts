/**
 * The fully-configured app's context: every optional setting of infra/lib/config.ts given (portal and
 * mTLS domains with their certificates and zone, the alarm e-mail, the Sefaz service and its
 * credentials secret, WAF on). The nag and synth tests build it next to the default app, so both
 * shapes a deploy can take are checked.
 */
export const FULL_CONTEXT = {
  stage: 'prod',
  mailDomain: 'plac.sefaz.example.gov.br',
  alarmEmail: 'ops@sefaz.example.gov.br',
  portalDomainName: 'portal.plac.sefaz.example.gov.br',
  portalCertificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/portal',
  mtlsDomainName: 'api-mtls.plac.sefaz.example.gov.br',
  mtlsCertificateArn: 'arn:aws:acm:sa-east-1:111111111111:certificate/mtls',
  hostedZoneId: 'Z0123456789ABCDEF',
  sefazUrl: 'https://sefaz.example.gov.br/dfe',
  sefazCredentialsSecretArn: 'arn:aws:secretsmanager:sa-east-1:111111111111:secret:plac/sefaz-AbCdEf',
  sefazUfs: 'BA,SE',
  waf: 'on',
} as const;
