import type { MessageKey } from '../messages';

/**
 * Dates (docs/architecture.md, "Conventions"): instants are stored as ISO-8601 UTC, calendar days
 * travel as 'YYYY-MM-DD', business months as 'YYYY-MM', and everything is shown in pt-BR in
 * America/Bahia time. Intl resolves the zone (no fixed -3 offset), so the 2011-2012 daylight-saving
 * season stays right.
 *
 * A date-only string is a calendar day and is never shifted by a zone: new Date('2026-11-21') would be
 * UTC midnight, i.e. the 20th in Bahia. A timestamp must carry Z or an offset; one without is
 * read in the runtime's own zone and differs between a browser and a Lambda, so it is rejected.
 */

/** An ISO timestamp with zone, a 'YYYY-MM-DD' calendar day, or a Date. */
export type DateInput = string | Date;

export type DateRangeError = Extract<MessageKey, 'dataInicioMaiorDataFim' | 'periodoMaximo'>;

interface Day {
  year: number;
  month: number;
  day: number;
}

const ZONE = 'America/Bahia';
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const MONTH = /^(?!0000)\d{4}-(?:0[1-9]|1[0-2])$/;
const MS_PER_DAY = 86_400_000;

// Built on first use: its time zone data costs a few ms of a Lambda's cold start (issue 39).
let bahia: Intl.DateTimeFormat | undefined;
const BAHIA = () =>
  (bahia ??= new Intl.DateTimeFormat('en-US', {
    timeZone: ZONE,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    hourCycle: 'h23',
  }));

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function isRealDay(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const length = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return day <= length;
}

/** Wall-clock fields of an instant in Bahia. */
function bahiaParts(instant: Date): Day & { hour: number; minute: number; second: number } {
  const parts = BAHIA().formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

/** The 'YYYY-MM-DD' that starts the text, if that day exists. */
function dayOfText(text: string): Day | null {
  const [year, month, day] = [Number(text.slice(0, 4)), Number(text.slice(5, 7)), Number(text.slice(8, 10))];
  return isRealDay(year, month, day) ? { year, month, day } : null;
}

function toInstant(input: DateInput): Date | null {
  if (input instanceof Date) return Number.isNaN(input.getTime()) ? null : input;
  // V8 rolls 2026-02-30T10:00Z over to 2 March; a day that does not exist is refused instead.
  if (!TIMESTAMP.test(input) || !dayOfText(input)) return null;
  const date = new Date(input);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The calendar day of the input: as written for 'YYYY-MM-DD', in Bahia for an instant. */
function toDay(input: DateInput | null | undefined): Day | null {
  if (input == null) return null;
  if (typeof input === 'string' && DATE_ONLY.test(input)) return dayOfText(input);
  const instant = toInstant(input);
  return instant ? bahiaParts(instant) : null;
}

function requireDay(input: DateInput): Day {
  const day = toDay(input);
  if (!day) throw new RangeError(`not a date: ${String(input)}`);
  return day;
}

const iso = (d: Day) => `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;

/** Days since 1970-01-01; setUTCFullYear avoids Date.UTC's mapping of years 0-99 to 1900-1999. */
function epochDay(d: Day): number {
  const date = new Date(0);
  date.setUTCFullYear(d.year, d.month - 1, d.day);
  return Math.round(date.getTime() / MS_PER_DAY);
}

function fromEpochDay(n: number): Day {
  const date = new Date(n * MS_PER_DAY);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** 'DD/MM/YYYY' in Bahia; '' for a missing or unreadable value (display only). */
export function formatDate(value: DateInput | null | undefined): string {
  const d = toDay(value);
  return d ? `${pad(d.day)}/${pad(d.month)}/${pad(d.year, 4)}` : '';
}

/** 'DD/MM/YYYY HH:mm' in Bahia; '' for a missing or unreadable value or a date without time. */
export function formatDateTime(value: DateInput | null | undefined): string {
  const instant = value == null ? null : toInstant(value);
  if (!instant) return '';
  const p = bahiaParts(instant);
  return `${pad(p.day)}/${pad(p.month)}/${pad(p.year, 4)} ${pad(p.hour)}:${pad(p.minute)}`;
}

/**
 * For files a person opens (the look-up CSVs): a date-time as 'DD/MM/YYYY HH:mm:ss' in Bahia, a date
 * ('YYYY-MM-DD') as 'DD/MM/YYYY' — the format the screens ask for. Any other text is kept as it is, so
 * nothing the source held is lost.
 */
export function formatDateForFile(value: string): string {
  if (DATE_ONLY.test(value)) return formatDate(value) || value;
  const instant = toInstant(value);
  if (!instant) return value;
  const p = bahiaParts(instant);
  return `${pad(p.day)}/${pad(p.month)}/${pad(p.year, 4)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

/**
 * 'YYYY-MM-DD': the Bahia calendar day of an instant, so a Lambda's "now" gives the business day. A date
 * picker's local midnight anywhere in Brazil except Noronha (UTC-2) maps to the day picked. Throws on an
 * unreadable value: a transported date must never be silently empty.
 */
export function toTransportDate(value: DateInput): string {
  return iso(requireDay(value));
}

/** '21/11/2026' → '2026-11-21'; null unless it is a real calendar day written DD/MM/YYYY. */
export function parseBrDate(text: string): string | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text.trim());
  if (!m) return null;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return isRealDay(year, month, day) ? iso({ year, month, day }) : null;
}

export function isBusinessMonth(value: unknown): value is string {
  return typeof value === 'string' && MONTH.test(value);
}

/** '2026-11' → '11/2026'; '' when it is not a business month. */
export function formatMonth(month: string): string {
  return isBusinessMonth(month) ? `${month.slice(5)}/${month.slice(0, 4)}` : '';
}

function shiftMonth(month: string, by: 1 | -1): string {
  if (!isBusinessMonth(month)) throw new RangeError(`not a business month: ${month}`);
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5)) - 1 + by;
  return `${pad(Math.floor(index / 12), 4)}-${pad((index % 12) + 1)}`;
}

export function previousMonth(month: string): string {
  return shiftMonth(month, -1);
}

export function nextMonth(month: string): string {
  return shiftMonth(month, 1);
}

/** The business month of a day or instant, in Bahia: '2026-12-01T02:00:00Z' → '2026-11'. */
export function monthOf(value: DateInput): string {
  return toTransportDate(value).slice(0, 7);
}

/** Calendar days from a to b (negative when b is earlier); same day → 0. */
export function daysBetween(a: DateInput, b: DateInput): number {
  return epochDay(requireDay(b)) - epochDay(requireDay(a));
}

/** Today's calendar day in Bahia, as 'YYYY-MM-DD' (the day every business rule counts in). */
export function todayInBahia(now: Date = new Date()): string {
  return iso(toDay(now)!);
}

/** The calendar day `days` after (or before, when negative) the given one, as 'YYYY-MM-DD'. */
export function addDays(value: DateInput, days: number): string {
  if (!Number.isSafeInteger(days)) throw new RangeError(`days must be an integer, got ${days}`);
  return iso(fromEpochDay(epochDay(requireDay(value)) + days));
}

/**
 * The date-range rule of the filters: start after end, or more than maxDays between them (end minus
 * start, so 2026-01-01 to 2026-04-01 is 90 days), gives the catalogue key. A missing side gives null:
 * whether it is required is the form's rule, not this one.
 */
export function validateDateRange(
  start: DateInput | null | undefined,
  end: DateInput | null | undefined,
  options: { maxDays: number } = { maxDays: 90 },
): DateRangeError | null {
  if (start == null || end == null || start === '' || end === '') return null;
  const days = daysBetween(start, end);
  if (days < 0) return 'dataInicioMaiorDataFim';
  if (days > options.maxDays) return 'periodoMaximo';
  return null;
}
