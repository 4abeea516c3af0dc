/**
 * Stand-in for the issuer acceptance terms (route emissor-termo), so that the issuer login lands on a
 * page of its own. The issuer's 3-step consent wizard will replace it.
 */
export default function IssuerTermsPage() {
  return (
    <>
      <h1 className="app-page-title">Termo de Aceitação</h1>
      <p>O termo de consentimento do emissor estará disponível nesta página.</p>
    </>
  );
}
