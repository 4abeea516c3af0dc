import './page-layout.css';
import type { FormEvent, ReactNode } from 'react';

interface FormPageProps {
  /** The page's heading. */
  title: string;
  /** The form's accessible name (the title unless said). */
  label?: string;
  /**
   * A public page (registrations, the trial's authorisation): a section named by its heading, whose
   * id this is.
   */
  section?: { titleId: string; className?: string };
  onSubmit: (event: FormEvent) => void;
  /** The fields, in the page's grid. */
  children: ReactNode;
  /** What follows the fields inside the form: the record's audit, the actions. */
  footer: ReactNode;
}

/**
 * A page that is one form, the same on every screen: the heading, then the form as a panel with its
 * fields in the page's grid and its footer below. Checks are the page's own (noValidate).
 */
export function FormPage({ title, label = title, section, onSubmit, children, footer }: FormPageProps) {
  const form = (
    <form className="page-panel" onSubmit={onSubmit} noValidate aria-label={label}>
      <div className="page-grid">{children}</div>
      {footer}
    </form>
  );
  if (!section) {
    return (
      <>
        <h1 className="app-page-title">{title}</h1>
        {form}
      </>
    );
  }
  return (
    <section className={section.className} aria-labelledby={section.titleId}>
      <h1 id={section.titleId} className="app-page-title">
        {title}
      </h1>
      {form}
    </section>
  );
}
