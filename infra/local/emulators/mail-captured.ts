/**
 * What the e-mail capture keeps of one message: the server (mail.ts) stores and serves it, its pages
 * (mail-pages.ts) show it. Apart from both, so that the pages need not import the server that serves
 * them.
 */

/** One captured message, as stored on disk and returned by the JSON API. */
export interface CapturedMail {
  id: string;
  /** ISO-8601 UTC instant of capture. */
  date: string;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string[];
  subject: string;
  text?: string;
  html?: string;
}
