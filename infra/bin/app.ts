#!/usr/bin/env node
// Entry point of the CDK CLI (cdk.json "app"); everything else is in lib/app.ts.
import { buildApp } from '../lib/app';

buildApp();
