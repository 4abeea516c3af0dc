/**
 * Test helper: synthesizes the app in-process without bundling (fast, and independent of whether the
 * handler modules build) and returns assertion Templates by stack. Cached per context in a worker.
 */
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudFormationStackArtifact } from 'aws-cdk-lib/cx-api';
import { STACK_NAMES, withSynthesizedAssembly } from '../lib/app';

export type StackKey = Exclude<keyof typeof STACK_NAMES, 'edge'>;
/** `edge` (the WAF's us-east-1 stack) exists unless the context says `waf: 'off'`. */
export type Templates = Record<StackKey, Template> & {
  edge?: Template;
  artifacts: Record<StackKey, CloudFormationStackArtifact> & { edge?: CloudFormationStackArtifact };
};

const cache = new Map<string, Templates>();

/**
 * The app as `cdk synth` makes it, CloudFormation Validate included (cdk.json makes its findings
 * errors): the unit tests' setup turns that check off for every other synthesis (tests/setup/
 * cdk-outdir.ts: it is most of a synthesis's time), and infra/test/app.test.ts runs it here on each
 * shape a deploy can take.
 */
export function synthValidated(context: Record<string, unknown> = {}): Templates {
  return synthesize(context, true);
}

export function synth(context: Record<string, unknown> = {}): Templates {
  const key = JSON.stringify(context);
  const hit = cache.get(key);
  if (hit) return hit;
  const templates = synthesize(context);
  cache.set(key, templates);
  return templates;
}

function synthesize(context: Record<string, unknown>, validate?: boolean): Templates {
  return withSynthesizedAssembly({ 'aws:cdk:bundling-stacks': [], ...context }, (assembly): Templates => {
    const edge = assembly.stacks.find((s) => s.stackName === STACK_NAMES.edge);
    const artifacts = {
      data: assembly.getStackByName(STACK_NAMES.data),
      api: assembly.getStackByName(STACK_NAMES.api),
      web: assembly.getStackByName(STACK_NAMES.web),
      ops: assembly.getStackByName(STACK_NAMES.ops),
      ...(edge ? { edge } : {}),
    };
    // Read now: the assembly's folder is removed when this returns.
    return {
      data: Template.fromJSON(artifacts.data.template as Record<string, unknown>),
      api: Template.fromJSON(artifacts.api.template as Record<string, unknown>),
      web: Template.fromJSON(artifacts.web.template as Record<string, unknown>),
      ops: Template.fromJSON(artifacts.ops.template as Record<string, unknown>),
      ...(edge ? { edge: Template.fromJSON(edge.template as Record<string, unknown>) } : {}),
      artifacts,
    };
  }, validate === undefined ? {} : { validate });
}

export type Resource = { Type: string; Properties?: Record<string, unknown>; Metadata?: Record<string, unknown>; DeletionPolicy?: string; UpdateReplacePolicy?: string; DependsOn?: string[] };

/** Resources of one type, by logical id. */
export function resources(template: Template, type: string): Record<string, Resource> {
  return template.findResources(type) as Record<string, Resource>;
}

/** The construct path (`PlacApi/Functions/DominioApi/Resource`) of a resource. */
export function pathOf(resource: Resource): string {
  return String(resource.Metadata?.['aws:cdk:path'] ?? '');
}

/** Logical id of the resource whose construct path is `path`. */
export function logicalIdOf(template: Template, path: string): string {
  const all = template.toJSON().Resources as Record<string, Resource>;
  const found = Object.entries(all).find(([, r]) => pathOf(r) === path);
  if (!found) throw new Error(`no resource at ${path}`);
  return found[0];
}
