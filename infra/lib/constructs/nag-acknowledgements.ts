/**
 * cdk-nag acknowledgements shared by several constructs, each with the reason it holds. Only the
 * findings named here are acknowledged (appliesTo), never a whole rule, so a new wildcard elsewhere on
 * the same resource is still reported (infra/test/nag.test.ts).
 */
import { Stack } from 'aws-cdk-lib';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';

/**
 * A state machine's role: CloudWatch Logs delivery (logs:CreateLogDelivery…) and X-Ray have no
 * resource-level permissions, and a LambdaInvoke task may invoke its function's versions (`<arn>:*`).
 */
export function acknowledgeStateMachineRole(machine: sfn.StateMachine): void {
  NagSuppressions.addResourceSuppressions(
    machine.role,
    [
      { id: 'AwsSolutions-IAM5', reason: 'CloudWatch Logs vended delivery and X-Ray tracing actions have no resource-level permissions (AWS documents Resource "*").', appliesTo: ['Resource::*'] },
      { id: 'AwsSolutions-IAM5', reason: 'The LambdaInvoke task may call any version or alias of its own task function, and only of it.', appliesTo: [{ regex: '/^Resource::<Functions[A-Za-z0-9]+\\.Arn>:\\*$/' }] },
    ],
    true,
  );
}

/**
 * The Lambda behind every s3deploy.BucketDeployment of a stack (one singleton per stack, created by
 * aws-cdk-lib): its runtime, managed policy and S3 action groups are the library's, not ours, and it
 * only runs during a deploy.
 */
export function acknowledgeBucketDeploymentHandler(scope: Construct): void {
  const stack = Stack.of(scope);
  for (const child of stack.node.children) {
    if (!child.node.id.startsWith('Custom::CDKBucketDeployment')) continue;
    NagSuppressions.addResourceSuppressions(
      child,
      [
        { id: 'AwsSolutions-L1', reason: 'aws-cdk-lib pins the runtime of its BucketDeployment handler; it runs only during deploys.' },
        { id: 'AwsSolutions-IAM4', reason: 'aws-cdk-lib gives its deploy-time handler the basic execution policy (its own logs).', appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole'] },
        {
          id: 'AwsSolutions-IAM5',
          reason: 'The handler copies the deploy assets from the CDK bootstrap bucket into the destination bucket: read on the asset objects, write and delete on the destination objects, as aws-cdk-lib grants them.',
          appliesTo: [{ regex: '/^Action::s3:[A-Za-z]+\\*$/' }, { regex: '/^Resource::.*\\/\\*$/' }],
        },
        {
          id: 'AwsSolutions-IAM5',
          reason: 'With the built portal present the deployment also invalidates the distribution: aws-cdk-lib grants cloudfront:CreateInvalidation and GetInvalidation on Resource "*", and the handler invalidates only this stack distribution.',
          appliesTo: ['Resource::*'],
        },
      ],
      true,
    );
  }
}
