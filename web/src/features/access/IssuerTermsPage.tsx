/**
 * Stand-in for the issuer acceptance terms (route emissor-termo), so that the issuer login lands on a
 * page of its own. The consent issue replaces it with the 3-step wizard of spec 1 section 4.
 */
export default function IssuerTermsPage() {
  return (
    <>
      <h1 className="app-page-title">Termo de Aceitação</h1>
      <p>O termo de consentimento do emissor estará disponível nesta página.</p>
    </>
  );
}
