import { createBrowserRouter } from 'react-router-dom';
import { setNavigator } from '../lib/navigation';
import { createRoutes } from './routes';

type AppRouter = ReturnType<typeof createBrowserRouter>;

/** Lets logout and the API client navigate through this router. */
export function bindNavigator(router: Pick<AppRouter, 'navigate'>): () => void {
  return setNavigator((to, options) => void router.navigate(to, options));
}

export function createAppRouter(): AppRouter {
  const router = createBrowserRouter(createRoutes());
  bindNavigator(router);
  return router;
}
