/**
 * The web ACL in front of CloudFront. A CLOUDFRONT-scoped AWS WAF web ACL can only be created in
 * us-east-1, while the other stacks live in the app's region (São Paulo), so it has a stack of its own
 * pinned to us-east-1 (the same reason the portal's certificate is an ARN of a us-east-1 certificate).
 * The web stack reads the ACL's ARN with Fn::GetStackOutput, which crosses regions without custom
 * resources (web-stack.ts).
 *
 * Rules, in order:
 *   1. AWS managed IP reputation list (known bots, scanners, DDoS sources): cheapest, first.
 *   2. AWS managed known bad inputs (Log4Shell, Java deserialization, localhost Host headers…).
 *   3. AWS managed common rule set (OWASP-style), with the 8 KB body limit only counted: the API
 *      enforces its own body limits and answers 413 from the catalogue (functions/platform/http.ts),
 *      and a WAF 403 would be an English page the portal cannot explain.
 *   4. A per-IP rate limit on the public routes (logins, registration, captcha, password reset, the
 *      trial): the routes an unauthenticated visitor can call over and over, derived from the contract
 *      table (routes.ts) so that a new public route is covered without editing this file.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import type { AppConfig } from '../config';
import { routesFor } from '../routes';

/** CloudFront's region: CLOUDFRONT-scoped web ACLs (and CloudFront's certificates) live only there. */
export const EDGE_REGION = 'us-east-1';
/** The output the web stack reads (Fn::GetStackOutput) to attach the ACL to the distribution. */
export const WEB_ACL_ARN_OUTPUT = 'WebAclArn';

/**
 * Requests per IP in WAF's 5-minute window on the public routes. A login is 2–3 of them (captcha,
 * authenticate, config); a SEFAZ office behind one NAT address logging in at opening time stays well
 * under one per second, a password-guessing or registration-spamming script does not.
 */
export const PUBLIC_ROUTES_RATE_LIMIT = 300;

/**
 * Public routes left out of the rate limit: read-only reference data and descriptions the pages fetch
 * several times per visit (the city autocomplete asks /dominio on every keystroke pause), which give
 * nothing to guess and nothing to spam.
 */
export const RATE_LIMIT_EXEMPT = [/^\/api\/docs$/, /^\/api\/v1\/(health|openapi\.json|config)$/, /^\/api\/v1\/dominio\//] as const;

/** What the rate-based rule matches: each public path exactly, or up to its first `{param}` as a prefix. */
export function rateLimitedPaths(): { readonly path: string; readonly match: 'EXACTLY' | 'STARTS_WITH' }[] {
  const seen = new Map<string, 'EXACTLY' | 'STARTS_WITH'>();
  for (const route of routesFor('web')) {
    if (route.authorized || RATE_LIMIT_EXEMPT.some((re) => re.test(route.path))) continue;
    const brace = route.path.indexOf('{');
    if (brace === -1) seen.set(route.path, 'EXACTLY');
    else seen.set(route.path.slice(0, brace), 'STARTS_WITH');
  }
  return [...seen].map(([path, match]) => ({ path, match })).sort((a, b) => a.path.localeCompare(b.path));
}

export interface EdgeStackProps extends StackProps {
  readonly config: AppConfig;
}

export class EdgeStack extends Stack {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, { ...props, env: { account: props.env?.account, region: EDGE_REGION } });
    const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      sampledRequestsEnabled: true,
    });
    const managed = (priority: number, name: string, extra: Partial<wafv2.CfnWebACL.ManagedRuleGroupStatementProperty> = {}): wafv2.CfnWebACL.RuleProperty => ({
      name,
      priority,
      overrideAction: { none: {} },
      statement: { managedRuleGroupStatement: { vendorName: 'AWS', name, ...extra } },
      visibilityConfig: visibility(name),
    });

    const paths = rateLimitedPaths();
    const pathStatement = (p: (typeof paths)[number]): wafv2.CfnWebACL.StatementProperty => ({
      byteMatchStatement: {
        fieldToMatch: { uriPath: {} },
        positionalConstraint: p.match,
        searchString: p.path,
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    });
    const publicRoutes: wafv2.CfnWebACL.StatementProperty =
      paths.length === 1 ? pathStatement(paths[0]!) : { orStatement: { statements: paths.map(pathStatement) } };

    this.webAcl = new wafv2.CfnWebACL(this, 'PortalWebAcl', {
      scope: 'CLOUDFRONT',
      description: `PLAC Fat-e portal ${props.config.stage} - AWS managed rules and a rate limit on the public routes`,
      defaultAction: { allow: {} },
      visibilityConfig: visibility('PlacPortal'),
      rules: [
        managed(0, 'AWSManagedRulesAmazonIpReputationList'),
        managed(1, 'AWSManagedRulesKnownBadInputsRuleSet'),
        managed(2, 'AWSManagedRulesCommonRuleSet', { ruleActionOverrides: [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }] }),
        {
          name: 'PublicRoutesRateLimit',
          priority: 3,
          action: { block: {} },
          statement: {
            rateBasedStatement: { limit: PUBLIC_ROUTES_RATE_LIMIT, aggregateKeyType: 'IP', evaluationWindowSec: 300, scopeDownStatement: publicRoutes },
          },
          visibilityConfig: visibility('PublicRoutesRateLimit'),
        },
      ],
    });

    new CfnOutput(this, WEB_ACL_ARN_OUTPUT, { value: this.webAcl.attrArn, description: 'ARN of the CloudFront web ACL' });
  }
}
