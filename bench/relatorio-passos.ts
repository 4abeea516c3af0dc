/**
 * One report job's steps, run in a process of their own so that its memory is the job's alone (the
 * bench's twin, with the S3 emulator's stored objects, lives in the parent): `passo` again and again,
 * as the Relatorio state machine calls it, until the file is complete, with process.memoryUsage()
 * sampled every 20 ms. Prints one JSON line: steps, seconds, and the peaks of rss, heapUsed and
 * arrayBuffers (the parts' Buffers live outside the JS heap). The environment is the twin's (the parent's).
 *
 * Used by bench/volume.ts (`exportRequests`); by hand: `npx tsx bench/relatorio-passos.ts <jobId>`.
 */
import { passo } from '../functions/consumo/relatorio-job';

const jobId = process.argv[2];
if (!jobId) throw new Error('usage: relatorio-passos.ts <jobId>');

const pico = { rss: 0, heapUsed: 0, arrayBuffers: 0 };
const amostrar = () => {
  const m = process.memoryUsage();
  pico.rss = Math.max(pico.rss, m.rss);
  pico.heapUsed = Math.max(pico.heapUsed, m.heapUsed);
  pico.arrayBuffers = Math.max(pico.arrayBuffers, m.arrayBuffers);
};
const timer = setInterval(amostrar, 20);
const t0 = performance.now();
let passos = 0;
for (;;) {
  passos++;
  const { concluido } = await passo(jobId);
  amostrar();
  if (concluido) break;
}
clearInterval(timer);
const MB = 1024 * 1024;
console.log(
  JSON.stringify({
    passos,
    segundos: Math.round((performance.now() - t0) / 100) / 10,
    picoRssMb: Math.round((pico.rss / MB) * 10) / 10,
    picoHeapMb: Math.round((pico.heapUsed / MB) * 10) / 10,
    picoArrayBuffersMb: Math.round((pico.arrayBuffers / MB) * 10) / 10,
  }),
);
process.exit(0);
