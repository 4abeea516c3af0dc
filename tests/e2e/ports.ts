/**
 * The e2e twin's ports and data folder. playwright.config.ts picks free ports once, in the runner,
 * and passes them through the environment, so the workers (which evaluate the config again and
 * import these helpers) use the same ones.
 */
function portFrom(name: string): number {
  const value = Number(process.env[name]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} is not set: run the e2e tests through playwright.config.ts`);
  return value;
}

export const e2ePorts = {
  get http() {
    return portFrom('PLAC_E2E_PORT');
  },
  get https() {
    return portFrom('PLAC_E2E_TLS_PORT');
  },
  get mail() {
    return portFrom('PLAC_E2E_MAIL_PORT');
  },
  get sefaz() {
    return portFrom('PLAC_E2E_SEFAZ_PORT');
  },
};
