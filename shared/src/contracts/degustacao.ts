/** The trial area (degustação): trial registration, token authorisation, the trial look-up and the staff list. */
export {};
