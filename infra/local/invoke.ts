/**
 * `npm run invoke -- <FunctionId> <event.json>`: runs one function of infra/lib/topology.ts once, in
 * this process, against the resources of the running twin (its environment is read from .data/),
 * and prints what it answered. Handy with the samples in events/.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { allFunctions, serviceName } from '../lib/topology';
import { localFunction } from './lambda-runtime';

const [id, eventFile] = process.argv.slice(2);
const spec = allFunctions.find((f) => f.id === id);
if (!spec || !eventFile) {
  console.error(`Usage: npm run invoke -- <FunctionId> <event.json>; functions: ${allFunctions.map((f) => f.id).join(', ')}`);
  process.exit(1);
}
const dataDir = process.env.PLAC_DATA_DIR ?? fileURLToPath(new URL('../../.data', import.meta.url));
try {
  Object.assign(process.env, JSON.parse(await readFile(`${dataDir}/twin-env.json`, 'utf8')) as Record<string, string>);
} catch {
  console.error('The local twin is not running: start it with `npm start` in another terminal.');
  process.exit(1);
}
// As the stack sets it for the deployed function (the twin's file has the twin's own name).
process.env.POWERTOOLS_SERVICE_NAME = serviceName(spec);
const event = JSON.parse(await readFile(eventFile, 'utf8')) as unknown;
console.log(JSON.stringify(await localFunction(spec)(event), null, 2));
