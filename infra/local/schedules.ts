/**
 * EventBridge Scheduler, locally: the same cron expressions as the CDK schedules, run by croner in
 * the schedule's time zone.
 */
import { Cron } from 'croner';

/** EventBridge `cron(min hour day month weekday year)` → croner's five fields (no year, `?` → `*`, a step from 0 written with a star, as croner wants it). */
export function toCroner(expression: string): string {
  const fields = /^cron\((.+)\)$/.exec(expression.trim())?.[1]?.split(/\s+/);
  if (!fields || fields.length !== 6) throw new Error(`not an EventBridge cron expression: ${expression}`);
  return fields
    .slice(0, 5)
    .map((field) => (field === '?' ? '*' : field.replace(/^0\//, '*/')))
    .join(' ');
}

export interface LocalSchedule {
  stop(): void;
  next(): Date | null;
}

export function startSchedule(
  name: string,
  schedule: { expression: string; timezone: string },
  run: () => Promise<unknown>,
): LocalSchedule {
  const job = new Cron(toCroner(schedule.expression), { timezone: schedule.timezone, protect: true, name }, async () => {
    try {
      await run();
    } catch (error) {
      console.error(`[schedule] ${name} failed:`, (error as Error).message);
    }
  });
  return { stop: () => job.stop(), next: () => job.nextRun() };
}
