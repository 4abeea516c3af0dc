/**
 * Look-ups of Fat-e data: the integrator API (mutual TLS, the caller's e-CNPJ) and the portal's look-ups
 * (bearer token): by access key, by composite key, receivable under evaluation, NFC-e and NF-e billing,
 * the carrier's Fat-e, and their CSV batches. Every look-up that finds data is metered (functions/consumo).
 */
export {};
