/**
 * A missing prerequisite on the developer's machine (no Java, a port already taken, ...).
 *
 * Kept apart from ordinary errors so that the twin's start script can print `message` alone — one
 * sentence that says what to do — instead of a stack trace that hides the fix.
 */
export class PrerequisiteError extends Error {
  override readonly name = 'PrerequisiteError';

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}
