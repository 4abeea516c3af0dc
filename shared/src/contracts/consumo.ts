/**
 * Usage metering's screens: consumption by client, by UF, the not-found look-ups and the client's
 * consumption monitoring (functions/consumo).
 */
export {};
