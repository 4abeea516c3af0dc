import type { PrimeReactPTOptions } from 'primereact/api';

/**
 * Accessibility fixes of PrimeReact's markup for every component of the portal (global pass-through,
 * given to PrimeReactProvider in RootShell), so that no page has to repeat them.
 *
 * Dropdown: besides its labelled combobox input, PrimeReact renders a hidden native <select> (for
 * forms that post) with no name, and a trigger div with role="button" named only by the placeholder.
 * Neither is focusable nor needed by assistive technology (the combobox carries the name, the value
 * and aria-expanded), so both are hidden from it: axe's select-name and aria-command-name.
 */
export const PASS_THROUGH: PrimeReactPTOptions = {
  dropdown: {
    select: { 'aria-hidden': true, tabIndex: -1 },
    trigger: { 'aria-hidden': true },
  },
};
