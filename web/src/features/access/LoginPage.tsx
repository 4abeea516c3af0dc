import type { ReactNode } from 'react';
import { TabPanel, TabView } from 'primereact/tabview';
import { ClientLoginForm } from './ClientLoginForm';
import { ProductAudiences, ProductIntro } from './ProductOverview';
import { SefazLoginForm } from './SefazLoginForm';

/**
 * The login page's frame: the presentation of the platform beside the login card, the audiences below.
 * The build also renders it, with a placeholder in the card, into the HTML of '/' (app/prerender.tsx),
 * so a phone shows the page's text before any script has run.
 */
export function LoginLayout({ children }: { children: ReactNode }) {
  return (
    <main className="public-page">
      <div className="login-layout">
        <ProductIntro />
        <section className="login-card" aria-labelledby="login-title">
          <h2 id="login-title">Acesso ao sistema</h2>
          {children}
        </section>
      </div>
      <ProductAudiences />
    </main>
  );
}

/**
 * The login route '/': tabs 'Cliente PLAC' (certificate or e-mail, with a password
 * dialog when the server asks for one) and 'Sefaz' (e-mail and password, forgot-password dialog), beside
 * the presentation of the platform. A signed-in visitor never sees it (the route's guard sends them to
 * the dashboard).
 */
export default function LoginPage() {
  return (
    <LoginLayout>
      <TabView>
        <TabPanel header="Cliente PLAC">
          <ClientLoginForm />
        </TabPanel>
        <TabPanel header="Sefaz">
          <SefazLoginForm />
        </TabPanel>
      </TabView>
    </LoginLayout>
  );
}
