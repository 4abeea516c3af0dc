/**
 * The mark of a required field, one style for every form (app.css .required-mark). It is hidden from
 * screen readers, which get aria-required on the input instead.
 */
export function RequiredMark() {
  return (
    <span className="required-mark" aria-hidden="true">
      *
    </span>
  );
}
